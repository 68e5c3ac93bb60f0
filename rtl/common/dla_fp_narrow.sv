// Float narrowing conversion (sdp.md §3.2 NARROW): NaN keeps the low output-mantissa bits of
// its payload (so it may become the Inf pattern), overflow -> largest finite value, RNE,
// results below the smallest normal become subnormals (KEEP_DENORM) or signed zero.
module dla_fp_narrow #(
  parameter int EI = 8,
  parameter int MI = 23,
  parameter int EO = 5,
  parameter int MO = 10,
  parameter bit KEEP_DENORM = 1'b1
) (
  input  logic [EI+MI:0] x,
  output logic [EO+MO:0] y
);
  localparam int D    = ((1 << (EI - 1)) - 1) - ((1 << (EO - 1)) - 1);
  localparam int EMXO = (1 << EO) - 1;
  localparam int DN   = MI - MO;

  logic          s;
  logic [EI-1:0] e;
  logic [MI-1:0] m;
  logic [MI+1:0] v, r, q;
  integer            k;
  logic          g, t;

  always_comb begin
    {s, e, m} = x;
    v = {2'b01, m};
    k = 0;
    q = '0;
    r = '0;
    g = 1'b0;
    t = 1'b0;
    if ((&e) && (|m))                      y = {s, {EO{1'b1}}, m[MO-1:0]};
    else if ($signed(32'(e)) >= EMXO + D)          y = {s, EO'(EMXO - 1), {MO{1'b1}}};
    else if ($signed(32'(e)) < D - MO)             y = {s, {(EO+MO){1'b0}}};
    else begin
      if ($signed(32'(e)) <= D) k = DN + (D - $signed(32'(e)) + 1);
      else              k = DN;
      q = v >> k;
      g = (k > 0) && v[k-1];                    // k = 0 (MI == MO, normal result): exact
      t = 1'b0;
      for (int i = 0; i < MI + 1; i++) if (i < k - 1 && v[i]) t = 1'b1;
      r = q + (MI+2)'(g && (t || q[0]));
      if ($signed(32'(e)) <= D) begin
        if (r == (MI+2)'(1 << MO))  y = {s, EO'(1), {MO{1'b0}}};
        else if (KEEP_DENORM)       y = {s, {EO{1'b0}}, r[MO-1:0]};
        else                        y = {s, {(EO+MO){1'b0}}};
      end else begin
        if (r == (MI+2)'(2 << MO)) begin
          if ($signed(32'(e)) - D + 1 == EMXO) y = {s, EO'(EMXO - 1), {MO{1'b1}}};
          else                         y = {s, EO'($signed(32'(e)) - D + 1), {MO{1'b0}}};
        end else                       y = {s, EO'($signed(32'(e)) - D), r[MO-1:0]};
      end
    end
  end
endmodule
