// INT17->FP16 (sdp.md §3.2): RNE to 11 significant bits; magnitudes that would reach 65536
// give +-65504 (SATURATE, SDP) or +-Inf (CDMA's image converter into fp16).
module dla_sdp_int17_fp16 #(
  parameter bit SATURATE = 1'b1
) (
  input  logic signed [16:0] v,
  output logic [15:0]        y
);
  logic [16:0] a, q;
  wire unused_q = &{1'b0, q[16:12]};
  logic [11:0] sig;
  integer          len, e;
  logic        s, g, t;
  always_comb begin
    s = v[16];
    a = s ? 17'(-v) : 17'(v);
    len = 0;
    for (int i = 0; i < 17; i++) if (a[i]) len = i + 1;
    e = len - 1 + 15;
    q = '0;
    g = 1'b0;
    t = 1'b0;
    if (len > 11) begin
      q = a >> (len - 11);
      g = a[len - 12];
      for (int i = 0; i < 17; i++) if (i < len - 12 && a[i]) t = 1'b1;
      sig = 12'(q) + 12'(g && (t || q[0]));
    end else sig = 12'(a << (11 - len));
    if (sig[11]) begin
      sig = sig >> 1;
      e = e + 1;
    end
    if (v == '0)     y = '0;
    else if (e >= 31) y = SATURATE ? {s, 5'h1e, 10'h3ff} : {s, 5'h1f, 10'h000};
    else             y = {s, 5'(e), sig[9:0]};
  end
endmodule
