// NVDLA float multiply (sdp.md §3.3 FMUL) for a format (E, M): RNE, overflow saturates to the
// largest finite value, underflow gives a signed zero, NaN operands pass through (first
// operand first). Subnormal operands are read with the hidden bit set.
module dla_fp_mul #(
  parameter int E = 8,
  parameter int M = 23
) (
  input  logic [E+M:0] a,
  input  logic [E+M:0] b,
  output logic [E+M:0] y
);
  localparam int BIAS = (1 << (E - 1)) - 1;
  localparam int EMAX = (1 << E) - 1;

  logic            sa, sb, s, guard, sticky, sat;
  logic [E-1:0]    ea, eb;
  logic [M-1:0]    ma, mb;
  logic [E+1:0]    esum, e;          // unsigned, room for the increments
  logic [2*M+1:0]  p, full;
  logic [M+1:0]    top;

  always_comb begin
    {sa, ea, ma} = a;
    {sb, eb, mb} = b;
    s    = sa ^ sb;
    esum = (E+2)'(ea) + (E+2)'(eb);
    p    = (2*M+2)'({1'b1, ma}) * (2*M+2)'({1'b1, mb});
    e    = esum - (E+2)'(BIAS);
    full = '0;
    top  = '0;
    guard = 1'b0;
    sticky = 1'b0;
    sat = 1'b0;
    if ((&ea) && (|ma)) y = a;
    else if ((&eb) && (|mb)) y = b;
    else if ((ea == '0 && ma == '0) || (eb == '0 && mb == '0) || $signed(32'(esum)) < BIAS)
      y = {s, {(E+M){1'b0}}};
    else if ($signed(32'(esum)) >= EMAX + BIAS)
      y = {s, E'(EMAX - 1), {M{1'b1}}};
    else begin
      sat = 1'b0;
      if (p[2*M+1]) begin
        if ($signed(32'(e)) >= EMAX - 1) sat = 1'b1;
        e    = e + 1'b1;
        full = p;                               // 2^(2M+1) + (P - 2^(2M+1))
      end else begin
        full = {1'b1, p[2*M-1:0], 1'b0};        // 2^(2M+1) + 2*(P - 2^(2M))
      end
      top    = {1'b0, full[2*M+1:M+1]};
      guard  = full[M];
      sticky = |full[M-1:0];
      if (guard && (sticky || top[0])) top = top + 1'b1;
      if (top[M+1]) begin
        top = top >> 1;
        e   = e + 1'b1;
        if ($signed(32'(e)) == EMAX) sat = 1'b1;
      end
      if (sat) y = {s, E'(EMAX - 1), {M{1'b1}}};
      else if (e == '0) y = {s, {(E+M){1'b0}}};
      else y = {s, e[E-1:0], top[M-1:0]};
    end
  end
endmodule
