// NVDLA float add (sdp.md §3.3 FADD) for a format (E, M): no sticky bit for the bits shifted
// out of the smaller operand, RNE on the rest, overflow saturates to the largest finite
// value, results below the smallest normal flush to a signed zero, NaN operands pass through
// bit-identical (first operand first). Subtraction = add with the second sign flipped.
module dla_fp_add #(
  parameter int E = 8,
  parameter int M = 23
) (
  input  logic [E+M:0] a,
  input  logic [E+M:0] b,
  output logic [E+M:0] y
);
  localparam int K = M + 2;
  localparam int N = 2 * M + 3;
  localparam int LZW = $clog2(N + 1);
  localparam logic [E-1:0] CARRY_LIM = {{(E-1){1'b1}}, 1'b0};   // 2^E - 2

  logic          sa, sb, a_larger, sl;
  logic [E-1:0]  ea, eb, el, es, dd, e;
  logic [M-1:0]  ma, mb;
  logic [M:0]    sig_l, sig_s, top;
  logic [N:0]    xx, yy, z;
  logic [LZW-1:0] lz;
  logic          nan_a, nan_b, guard, sticky, done;

  always_comb begin
    {sa, ea, ma} = a;
    {sb, eb, mb} = b;
    nan_a = (&ea) && (|ma);
    nan_b = (&eb) && (|mb);
    a_larger = (ea > eb) || (ea == eb && ma >= mb);
    sl    = a_larger ? sa : sb;
    el    = a_larger ? ea : eb;
    es    = a_larger ? eb : ea;
    sig_l = a_larger ? ((ea == '0 && ma == '0) ? '0 : {1'b1, ma})
                     : ((eb == '0 && mb == '0) ? '0 : {1'b1, mb});
    sig_s = a_larger ? ((eb == '0 && mb == '0) ? '0 : {1'b1, mb})
                     : ((ea == '0 && ma == '0) ? '0 : {1'b1, ma});
    dd    = el - es;
    xx    = (N+1)'(sig_l) << K;
    if ($signed(32'(dd)) <= K) yy = (N+1)'(sig_s) << (K - $signed(32'(dd)));
    else               yy = (N+1)'(sig_s) >> ($signed(32'(dd)) - K);
    z     = (sa == sb) ? xx + yy : xx - yy;
    e     = el;
    y     = '0;
    lz    = '0;
    guard = 1'b0;
    sticky = 1'b0;
    top   = '0;
    done  = 1'b0;
    if (nan_a) y = a;
    else if (nan_b) y = b;
    else begin
      done = 1'b0;
      if (z[N]) begin
        if (e >= CARRY_LIM) begin
          y = {sl, CARRY_LIM, {M{1'b1}}};
          done = 1'b1;
        end else begin
          e = e + 1'b1;
          z = z >> 1;
        end
      end else begin
        lz = LZW'(N);
        for (int i = 0; i < N; i++) if (z[i]) lz = LZW'(N - 1 - i);
        if (z == '0 || $signed(32'(e)) <= $signed(32'(lz))) begin
          y = {sl, {(E+M){1'b0}}};
          done = 1'b1;
        end else begin
          e = e - E'(lz);
          z = z << lz;
        end
      end
      if (!done) begin
        top    = z[N-1:M+2];
        guard  = z[M+1];
        sticky = |z[M:0];
        if (guard && (sticky || top[0])) begin
          if (&top) begin
            if (e >= CARRY_LIM) begin
              y = {sl, CARRY_LIM, {M{1'b1}}};
              done = 1'b1;
            end else begin
              e = e + 1'b1;
              top = {1'b1, {M{1'b0}}};
            end
          end else top = top + 1'b1;
        end
        if (!done) y = {sl, e, top[M-1:0]};
      end
    end
  end
endmodule
