#!/usr/bin/env python3
"""Tests of formal_triage.py on a small hand-made mutant netlist (Yosys and yosys-abc needed,
both from the yosys package): a mutant that changes a port is distinguishable with a witness
naming that port, an equivalent one is equivalent, a mutant that changes only what a memory
stores is distinguishable when the memory is bit-blasted and unknown when it is cut; bad input
exits 2 naming the rule.

usage: formal_triage_test.py"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TRIAGE = os.path.join(HERE, "formal_triage.py")

# The layout gen_mutants.py leaves: <top>__mutants with a mutsel input. Mutant 1 inverts q's
# next value, 2 ANDs it with all ones (equivalent), 3 flips bit 0 of what the memory stores
# (seen at r one cycle later), 4 changes d only while its valid v is low, 5 changes what h
# holds while e is low (h is read only the clock after e), 6 sets z 21 cycles after reset
# (deeper than the tests' K = 8), 7 sets y when a mod-10 counter reads 12 (never: equivalent, but
# only an invariant shows it), 8 is equivalent and writes a 6-word memory that s reads at any
# address, past its end too; 9 flips bit 0 of p, which w copies a clock later (the mutation's
# fan-out runs through two flops: the copies' p differ at once, their w only through p). ld packs
# two 4-bit lanes whose valids are lv[1:0]: 10 changes lane 1 only while lv[1] is low (and lv[0]
# high), 11 changes lane 1 while lv[1] is high; 12 flips bit 0 of lane 0 while lv[0] is high, 13
# bit 1 of it.
TOY = """
module toy__mutants(input clk, input rstn, input [3:0] mutsel, input [3:0] a, input e, input [2:0] ra,
                    output reg [3:0] q, output [3:0] r, output reg v, output reg [3:0] d,
                    output reg [3:0] h, output reg z, output reg y, output [3:0] s, output reg [3:0] w,
                    output reg [1:0] lv, output reg [7:0] ld);
  reg [3:0] mem [0:15];
  reg [3:0] six [0:5];
  reg [3:0] wa;
  reg [4:0] c;
  reg [3:0] c10;
  reg [3:0] p;
  always @(posedge clk or negedge rstn)
    if (!rstn) begin q <= 4'd0; wa <= 4'd0; v <= 1'b0; d <= 4'd0; h <= 4'd0; c <= 5'd0; c10 <= 4'd0; z <= 1'b0; y <= 1'b0; p <= 4'd0; w <= 4'd0; lv <= 2'd0; ld <= 8'd0; end
    else begin
      q  <= (mutsel == 4'd1) ? ~a : (mutsel == 4'd2) ? (a & 4'hf) : a;
      wa <= wa + 4'd1;
      v  <= a[3];
      d  <= a[3] ? a : (mutsel == 4'd4) ? 4'd5 : 4'd0;
      h  <= e ? a : (mutsel == 4'd5) ? 4'd7 : h;
      c  <= c + 5'd1;
      c10 <= (c10 == 4'd9) ? 4'd0 : c10 + 4'd1;
      z  <= (mutsel == 4'd6) && (c == 5'd20);
      y  <= (mutsel == 4'd7) && (c10 == 4'd12);
      p  <= (mutsel == 4'd9) ? a ^ 4'd1 : a;
      w  <= p;
      lv <= a[1:0];
      ld[3:0] <= a[0] ? ((mutsel == 4'd12) ? a ^ 4'd1 : (mutsel == 4'd13) ? a ^ 4'd2 : a) : 4'd0;
      ld[7:4] <= a[1] ? ((mutsel == 4'd11) ? a ^ 4'd4 : a) : ((mutsel == 4'd10 && a[0]) ? 4'd9 : 4'd0);
    end
  always @(posedge clk) mem[wa] <= (mutsel == 4'd3) ? a ^ 4'd1 : a;
  always @(posedge clk) if (wa[2:0] < 3'd6) six[wa[2:0]] <= (mutsel == 4'd8) ? (a | 4'h0) : a;
  assign r = mem[wa - 4'd1];
  assign s = six[ra];
endmodule
"""


class FormalTriage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="formal-triage-")
        cls.model = os.path.join(cls.tmp, "model")
        os.makedirs(cls.model)
        with open(os.path.join(cls.model, "toy.sv"), "w") as f:
            f.write(TOY)
        subprocess.run(["yosys", "-q", "-p", f"read_verilog -sv {cls.model}/toy.sv; write_rtlil {cls.model}/prepared.il"],
                       check=True)
        open(os.path.join(cls.model, "mutations.ys"), "w").close()
        with open(os.path.join(cls.model, "mutants.json"), "w") as f:
            json.dump({"top": "toy", "instance": "", "seed": 1, "selector_width": 4, "count": 13, "mutants": []}, f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def triage(self, out, *extra):
        r = subprocess.run([sys.executable, TRIAGE, "--model-dir", self.model, "--out", os.path.join(self.tmp, out),
                            "--depth", "8", "--timeout", "30", *extra], capture_output=True, text=True)
        return r

    def classes(self, out, *extra, mutants="1,2,3,4,5"):
        r = self.triage(out, "--mutants", mutants, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.tmp, out, "triage.json")) as f:
            return {m["id"]: m for m in json.load(f)["mutants"]}

    def test_bit_blasted_memory(self):
        m = self.classes("mapped")
        self.assertEqual(m[1]["class"], "distinguishable")
        self.assertEqual(m[1]["ports"], ["q"])
        self.assertGreaterEqual(m[1]["witness_cycles"], 2)  # reset first, then a differing a
        with open(m[1]["witness"]) as f:
            vcd = f.read()
        self.assertIn("gold_p_q", vcd)
        self.assertIn("gate_p_q", vcd)
        self.assertEqual(m[2]["class"], "equivalent")
        self.assertEqual(m[3]["class"], "distinguishable")
        self.assertEqual(m[3]["ports"], ["r"])
        # Without qualifiers, data under a low valid and a value held between reads differ.
        self.assertEqual(m[4]["class"], "distinguishable")
        self.assertEqual(m[4]["ports"], ["d"])
        self.assertEqual(m[5]["class"], "distinguishable")
        self.assertEqual(m[5]["ports"], ["h"])

    def test_qualified_ports(self):
        m = self.classes("qualified", "--qualify", "d=v", "--qualify", "h=e@1", "-j", "2")  # two workers
        self.assertEqual(m[4]["class"], "equivalent")
        self.assertEqual(m[5]["class"], "equivalent")
        self.assertEqual(m[1]["class"], "distinguishable")  # unqualified ports still compared
        self.assertEqual(m[1]["ports"], ["q"])
        # A qualifier one cycle off reads h while the mutant's held value is there.
        m = self.classes("qualified-late", "--qualify", "h=e@2")
        self.assertEqual(m[5]["class"], "distinguishable")
        self.assertEqual(m[5]["ports"], ["h"])

    def test_lane_qualified_port(self):
        # Any-bit qualifier: lane 1's data under lane 0's valid counts (the old, stricter form).
        m = self.classes("lanes-any", "--qualify", "ld=lv", mutants="10,11")
        self.assertEqual(m[10]["class"], "distinguishable")
        # Per lane: lane 1 is compared only under lv[1]; a real lane-1 difference still shows.
        m = self.classes("lanes", "--qualify", "ld=lv:lanes", mutants="10,11")
        self.assertEqual(m[10]["class"], "equivalent")
        self.assertEqual(m[11]["class"], "distinguishable")
        self.assertEqual(m[11]["ports"], ["ld"])
        # Low bits left out of each lane: bit 0 of lane 0 no longer counts, bit 1 still does.
        m = self.classes("lanes-low", "--qualify", "ld=lv:lanes:low=1", mutants="11,12,13")
        self.assertEqual(m[12]["class"], "equivalent")
        self.assertEqual(m[13]["class"], "distinguishable")
        self.assertEqual(m[13]["ports"], ["ld"])
        self.assertEqual(m[11]["class"], "distinguishable")  # lane 1's difference is above bit 0
        m = self.classes("lanes-nolow", "--qualify", "ld=lv:lanes", mutants="12")
        self.assertEqual(m[12]["class"], "distinguishable")
        for bad, rule in (("ld=ra:lanes", "not one lane per bit"), ("ld=lv:lane", "expected PORT=WHEN"),
                          ("ld=lv:lanes:low=4", "leaves no bit")):
            r = self.triage("badlanes", "--mutants", "10", "--qualify", bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(rule, r.stderr)

    def test_differing_ports_per_lane_and_low_bits(self):
        # The witness's port list: ld differs only in bit 0 of lane 0 (left out with low=1) and in
        # lane 1 (not read: qualifier bit 1 is 0); q differs outright.
        sys.path.insert(0, HERE)
        import formal_triage
        vcd = os.path.join(self.tmp, "ports.vcd")
        with open(vcd, "w") as f:
            f.write("$var wire 8 a gold_p_ld $end\n$var wire 8 b gate_p_ld $end\n$var wire 2 c qual_p_ld $end\n"
                    "$var wire 4 d gold_p_q $end\n$var wire 4 e gate_p_q $end\n$enddefinitions $end\n#0\n"
                    "b00000001 a\nb10000000 b\nb01 c\nb1 d\nb10 e\n")
        self.assertEqual(formal_triage.differing_ports(vcd, {"ld": 1}), ["q"])
        self.assertEqual(formal_triage.differing_ports(vcd, {}), ["ld", "q"])  # bit 0 counts without low

    def test_cut_memory(self):
        m = self.classes("cut", "--map-memories-below", "8")
        self.assertEqual(m[1]["class"], "distinguishable")
        self.assertEqual(m[2]["class"], "equivalent")
        self.assertEqual(m[3]["class"], "unknown")
        self.assertIn("memory input", m[3]["reason"])

    def test_beyond_k_and_for_all_cycles(self):
        m = self.classes("deep", "--timeout", "20", mutants="6,7,8")
        # No difference within K = 8 cycles, but PDR finds the one at cycle 22: not equivalent.
        self.assertEqual(m[6]["class"], "distinguishable")
        self.assertEqual(m[6]["ports"], ["z"])
        self.assertGreater(m[6]["witness_cycles"], 8)
        # Equivalent for all cycles: PDR finds the counter's invariant (c10 <= 9).
        self.assertEqual(m[7]["class"], "equivalent")
        self.assertEqual(m[7]["proof"], "all cycles")
        # A read past a memory's end is 0 in both copies, not a free value per copy.
        self.assertEqual(m[8]["class"], "equivalent")
        self.assertEqual(m[8]["proof"], "all cycles")
        self.assertEqual(m[8]["registers_left"], 0)  # signal correspondence alone merged the copies

    def test_structural_merge_keeps_the_fan_out(self):
        # Flops outside a mutation's fan-out are merged before ABC runs; a flop the mutation
        # reaches only through another flop (w, through p) must stay apart in both copies.
        m = self.classes("fanout", "--qualify", "d=v", "--qualify", "h=e@1", mutants="1,2,9")
        self.assertEqual(m[9]["class"], "distinguishable")
        self.assertEqual(m[9]["ports"], ["w"])
        self.assertGreaterEqual(m[9]["witness_cycles"], 3)  # reset, a into p, p into w
        self.assertEqual(m[2]["class"], "equivalent")
        for i in (1, 2, 9):  # every flop but the mutated one and what it feeds has its twin
            self.assertGreater(m[i]["registers_merged"], 8, i)
        self.assertGreater(m[2]["registers_merged"], m[9]["registers_merged"])
        # The two copies are the same gates (the unit is mapped once, then instantiated twice):
        # for mutant 2, which no flop's next state sees, every flop has its twin merged.
        gate_flops = set()
        with open(os.path.join(self.tmp, "fanout", "work", "miter.aim")) as f:
            for line in f:
                t = line.split()
                if t[0] == "latch" and t[3].startswith("gate."):
                    gate_flops.add(t[1])
        self.assertEqual(m[2]["registers_merged"], len(gate_flops))

    def test_without_signal_correspondence(self):
        # The path taken when signal correspondence runs out of its share of the budget: bmc3
        # and PDR get the whole folded miter and still reach every verdict.
        m = self.classes("no-scorr", "--scorr-seconds", "0", "--timeout", "20", mutants="1,2,6,7,9")
        for i in m:
            self.assertEqual(m[i]["signal_correspondence"], "skipped (--scorr-seconds 0)", i)
            self.assertIsNone(m[i]["registers_left"], i)
        self.assertEqual(m[1]["class"], "distinguishable")
        self.assertEqual(m[1]["ports"], ["q"])
        self.assertEqual(m[9]["class"], "distinguishable")
        self.assertEqual(m[9]["ports"], ["w"])
        self.assertEqual(m[6]["class"], "distinguishable")
        self.assertGreater(m[6]["witness_cycles"], 8)
        self.assertEqual(m[2]["class"], "equivalent")
        self.assertEqual(m[7]["class"], "equivalent")
        self.assertEqual(m[7]["proof"], "all cycles")
        r = self.triage("no-scorr-bad", "--mutants", "1", "--scorr-seconds", "30")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--scorr-seconds 30: must lie in 0..29", r.stderr)

    def test_miter_reused_only_when_unchanged(self):
        # A rerun on the same --out reuses the miter; another qualifier (another miter) rebuilds it.
        first = self.triage("reuse", "--mutants", "1,4")
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertNotIn("reusing the miter", first.stdout)
        again = self.triage("reuse", "--mutants", "1,4")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("reusing the miter", again.stdout)
        with open(os.path.join(self.tmp, "reuse", "triage.json")) as f:
            m = {x["id"]: x for x in json.load(f)["mutants"]}
        self.assertEqual(m[1]["class"], "distinguishable")
        self.assertEqual(m[4]["class"], "distinguishable")
        other = self.triage("reuse", "--mutants", "1,4", "--qualify", "d=v")
        self.assertEqual(other.returncode, 0, other.stderr)
        self.assertNotIn("reusing the miter", other.stdout)
        with open(os.path.join(self.tmp, "reuse", "triage.json")) as f:
            m = {x["id"]: x for x in json.load(f)["mutants"]}
        self.assertEqual(m[4]["class"], "equivalent")

    def test_bad_input(self):
        r = self.triage("bad1", "--mutants", "14")
        self.assertEqual(r.returncode, 2)
        self.assertIn("ids must lie in 1..13", r.stderr)
        for q, msg in (("d", "expected PORT=WHEN"), ("nope=v", "no output port 'nope'"),
                       ("d=nope", "no port 'nope'"), ("a=e", "no output port 'a'")):
            r = self.triage("badq", "--mutants", "1", "--qualify", q)
            self.assertEqual(r.returncode, 2, q)
            self.assertIn(msg, r.stderr, q)
        r = self.triage("badq2", "--mutants", "1", "--qualify", "d=v", "--qualify", "d=e")
        self.assertEqual(r.returncode, 2)
        self.assertIn("qualified twice", r.stderr)
        r = self.triage("bad2", "--mutants", "1,x")
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a comma-separated list of ids", r.stderr)
        r = subprocess.run([sys.executable, TRIAGE, "--model-dir", os.path.join(self.tmp, "nowhere"), "--mutants", "1",
                            "--out", os.path.join(self.tmp, "bad3")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("prepared.il missing", r.stderr)
        bad_model = os.path.join(self.tmp, "badmodel")
        shutil.copytree(self.model, bad_model, dirs_exist_ok=True)
        with open(os.path.join(bad_model, "mutants.json"), "w") as f:
            f.write("{not json")
        r = subprocess.run([sys.executable, TRIAGE, "--model-dir", bad_model, "--mutants", "1",
                            "--out", os.path.join(self.tmp, "bad4")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("mutants.json: not a gen_mutants.py mutant list", r.stderr)
        r = subprocess.run([sys.executable, TRIAGE, "--model-dir", self.model, "--mutants", "1",
                            "--out", os.path.join(self.tmp, "bad5")], capture_output=True, text=True,
                           env={**os.environ, "PATH": "/nonexistent"})
        self.assertEqual(r.returncode, 2)
        self.assertIn("yosys not found on PATH", r.stderr)


if __name__ == "__main__":
    unittest.main()
