// FRAC35->FP17 (sdp.md §3.2): unsigned 35-bit fraction F (value F / 2^35) to fp17 with RNE.
module dla_lut_frac_fp17 (
  input  logic [34:0] f,
  output logic [16:0] y
);
  integer          len, e;
  logic [11:0] sig;
  logic [34:0] q;
  wire unused_q = &{1'b0, q[34:12]};
  logic        g, t;
  always_comb begin
    len = 0;
    for (int i = 0; i < 35; i++) if (f[i]) len = i + 1;
    sig = '0;
    q = '0;
    g = 1'b0;
    t = 1'b0;
    if (len > 11) begin
      q = f >> (len - 11);
      g = f[len - 12];
      for (int i = 0; i < 35; i++) if (i < len - 12 && f[i]) t = 1'b1;
      sig = 12'(q) + 12'(g && (t || q[0]));
    end else sig = 12'(f << (11 - len));
    e = 31 - (35 - len + 1);
    if (sig[11]) begin
      sig = sig >> 1;
      e = e + 1;
    end
    if (f == '0 || e <= 0) y = '0;
    else y = {1'b0, 6'(e), sig[9:0]};
  end
endmodule
