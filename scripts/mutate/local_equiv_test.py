#!/usr/bin/env python3
"""Tests of local_equiv.py on a small hand-made model directory (Yosys needed): a mutant that
changes a combinational instance's output differs, with a witness; one whose change never reaches
the output (a comparison that is always false) is equivalent; in a module with flops, checked with
its registers cut, a changed next state differs, an unread bit is equivalent and a difference only
an unreachable state shows still differs, a memory is cut at its ports, a mutated flop is mutated
before the cut;
a mutant whose recorded source does not match the re-elaborated cell is refused rather than
checked on the wrong cell; --assume restricts the instance's inputs to a domain; local_waivers.py writes an identity entry per equivalent verdict,
pinned to the mutant id when other cells share the identity; bad
input exits 2 naming the rule.

usage: local_equiv_test.py"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "local_equiv.py")
WAIVERS = os.path.join(HERE, "local_waivers.py")

TOY = """
module comb(input [3:0] a, input [3:0] b, output [3:0] y);
  wire never = a > 4'd15;          // always false for 4 bits
  wire three = a == 4'd3;          // matters only when a = 3
  assign y = never ? 4'd0 : three ? b : (a ^ b);
endmodule
module seq(input clk, input rstn, input en, input [3:0] a, output [3:0] q, output [3:0] z);
  reg [3:0] r, s;
  always @(posedge clk or negedge rstn)
    if (!rstn) r <= 4'd0;
    else if (en) r <= a + 4'd1;            // next state: a change here differs
  wire [4:0] w = {1'b0, r} + 5'd1;         // bit 4 read by nobody
  assign q = w[3:0];
  always @(posedge clk) s <= r & 4'd7;     // s < 8 in every reachable state ...
  assign z = (s > 4'd7) ? 4'd0 : s;        // ... which the register cut does not know
endmodule
module ram(input clk, input [1:0] wa, input [1:0] ra, input [3:0] d, output [3:0] o);
  reg [3:0] m [0:3];
  always @(posedge clk) m[wa] <= d;
  wire [4:0] t = {1'b0, m[ra]} + 5'd5;     // bit 4 read by nobody
  assign o = t[3:0];
endmodule
module inner(input [3:0] a, output [3:0] y);
  assign y = a + 4'd1;                     // bit 3 of the sum: outer reads only bits 2..0
endmodule
module outer(input [3:0] a, output [2:0] y);
  wire [3:0] t;
  inner u_inner(.a(a), .y(t));
  assign y = t[2:0];
endmodule
module toy(input clk, input rstn, input en, input [3:0] a, input [3:0] b, output [3:0] y, output [3:0] q,
           output [3:0] z, output [3:0] o, output [2:0] w);
  outer u_outer(.a(a), .y(w));
  comb u_comb(.a(a), .b(b), .y(y));
  seq u_seq(.clk(clk), .rstn(rstn), .en(en), .a(a), .q(q), .z(z));
  ram u_ram(.clk(clk), .wa(a[1:0]), .ra(b[1:0]), .d(b), .o(o));
endmodule
"""


def run(args):
    return subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True)


class SourceMatchTest(unittest.TestCase):
    """A re-elaborated cell's spans against the mutant list's (no Yosys needed)."""

    def setUp(self):
        sys.path.insert(0, HERE)
        import local_equiv
        self.same_source = local_equiv.same_source

    def test_a_generated_register_block_is_found_under_its_configuration(self):
        # gen_mutants.py writes build/gen/<cfg>/rtl/x.sv as gen/rtl/x.sv
        m = {"location": "gen/rtl/dla_sdp_regs.sv:860.3-863.137",
             "sources": ["rtl/sdp/dla_sdp.sv:173.16-241.4", "gen/rtl/dla_sdp_regs.sv:860.3-863.137"]}
        self.assertTrue(self.same_source("/w/build/gen/small/rtl/dla_sdp_regs.sv:860.3-863.137", m))
        self.assertTrue(self.same_source("/w/build/gen/small/rtl/dla_sdp_regs.sv:860.3-863.137",
                                         {"location": m["location"]}))
        # another line, or another file of the same name outside gen/, is another cell
        self.assertFalse(self.same_source("/w/build/gen/small/rtl/dla_sdp_regs.sv:509.3-512.137", m))
        self.assertFalse(self.same_source("/w/rtl/sdp/dla_sdp_regs.sv:860.3-863.137",
                                          {"location": "rtl/sdp/dla_sdp.sv:1.1-1.2",
                                           "sources": ["gen/rtl/dla_sdp_regs.sv:860.3-863.137"]}))


class WaiverSourceLineTest(unittest.TestCase):
    """local_waivers.py quotes a generated register block's line from the model's own copy."""

    def test_a_generated_block_is_read_from_the_models_file_list(self):
        sys.path.insert(0, HERE)
        import local_waivers
        with tempfile.TemporaryDirectory() as d:
            gen = os.path.join(d, "build", "gen", "small", "rtl")
            os.makedirs(gen)
            with open(os.path.join(gen, "dla_x_regs.sv"), "w") as f:
                f.write("line one\n  line two  \n")
            model = os.path.join(d, "model")
            os.makedirs(model)
            with open(os.path.join(model, "filelist.f"), "w") as f:
                f.write(os.path.join(d, "rtl", "top.sv") + "\n" + os.path.join(gen, "dla_x_regs.sv") + "\n")
            loc = "gen/rtl/dla_x_regs.sv:2.3-2.10"
            self.assertEqual(local_waivers.source_line(loc, d, model), "line two")
            self.assertEqual(local_waivers.source_line(loc, d), "")  # no model: not found, no line
            self.assertEqual(local_waivers.source_line("gen/rtl/other.sv:1.1-1.2", d, model), "")


class WaiverPinTest(unittest.TestCase):
    """A cell whose name and source span other cells of the design share (an unrolled loop's
    iterations) is pinned to its mutant id; a unique one is named by identity alone; one the
    design does not show (no prepared.il) is pinned."""

    def test_a_shared_identity_is_pinned_to_the_mutant_id(self):
        with tempfile.TemporaryDirectory() as d:
            model = os.path.join(d, "model")
            os.makedirs(model)
            src = os.path.join(d, "rtl", "x.sv")
            loop = f'  attribute \\src "{src}:5.3-5.9"\n  cell $and $flatten\\u_a.$and${src}:5${{n}}\n  end\n'
            with open(os.path.join(model, "prepared.il"), "w") as f:
                f.write("module \\top\n" + loop.format(n=100) + loop.format(n=103) +
                        f'  attribute \\src "{src}:9.1-9.4"\n  cell $or $flatten\\u_a.$or${src}:9$107\n  end\nend\n')
            mutants = [
                {"id": 1, "mode": "const0", "cell": f"$flatten\\u_a.$and${src}:5$103", "port": "Y", "portbit": 0,
                 "location": "rtl/x.sv:5.3-5.9"},
                {"id": 2, "mode": "const1", "cell": f"$flatten\\u_a.$or${src}:9$107", "port": "Y", "portbit": 0,
                 "location": "rtl/x.sv:9.1-9.4"},
            ]
            with open(os.path.join(model, "mutants.json"), "w") as f:
                json.dump({"top": "top", "count": 2, "selector_width": 2, "mutants": mutants}, f)
            local = os.path.join(d, "local_equiv.json")
            with open(local, "w") as f:
                json.dump({"mutants": [{"id": 1, "class": "equivalent", "instance": "u_a", "module": "a"},
                                       {"id": 2, "class": "equivalent", "instance": "u_a", "module": "a"}]}, f)
            def entries():
                p = subprocess.run([sys.executable, WAIVERS, "--model-dir", model, "--local", local, "--model",
                                    "small:x", "--graded-at", "abc", "--source-root", d], capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                return p.stdout.split("  - model: ")[1:]

            e1, e2 = entries()
            self.assertIn("    mutant: 1\n", e1)
            self.assertIn("one of 2 with this name and source span", e1)
            self.assertIn("    cell: '$flatten\\u_a.$and$x.sv:5'", e1)
            self.assertNotIn("mutant:", e2)
            # without prepared.il nothing says the identity is unique: every entry is pinned
            os.remove(os.path.join(model, "prepared.il"))
            e1, e2 = entries()
            self.assertIn("    mutant: 1\n", e1)
            self.assertIn("    mutant: 2\n", e2)
            self.assertIn("shows no cell with this name and source span", e2)

    def test_a_location_without_a_span_is_refused(self):
        """Yosys gives some generated cells only a file as location; a waiver cannot name them."""
        with tempfile.TemporaryDirectory() as d:
            model = os.path.join(d, "model")
            os.makedirs(model)
            mutants = [{"id": 1, "mode": "const0", "cell": "$flatten\\u_a.$shift$x.sv:0$5", "port": "Y", "portbit": 3,
                        "location": "rtl/x.sv"}]
            with open(os.path.join(model, "mutants.json"), "w") as f:
                json.dump({"top": "top", "count": 1, "selector_width": 1, "mutants": mutants}, f)
            local = os.path.join(d, "local_equiv.json")
            with open(local, "w") as f:
                json.dump({"mutants": [{"id": 1, "class": "equivalent", "instance": "u_a", "module": "a"}]}, f)
            p = subprocess.run([sys.executable, WAIVERS, "--model-dir", model, "--local", local, "--model", "small:x",
                                "--graded-at", "abc", "--source-root", d], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn("mutant 1: its location 'rtl/x.sv' has no source span", p.stderr)
            self.assertEqual(p.stdout, "")


@unittest.skipIf(shutil.which("yosys") is None, "yosys not installed (make setup)")
class LocalEquivTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="local_equiv_test.")
        src = os.path.join(cls.tmp, "toy.v")
        with open(src, "w") as f:
            f.write(TOY)
        cls.model = os.path.join(cls.tmp, "model")
        os.makedirs(cls.model)
        prepared = os.path.join(cls.model, "prepared.il")
        # gen_mutants.py's mutate.ys shape: elaborate, rename, proc, flatten, write prepared.il
        script = (f"read_verilog -sv {src}\nhierarchy -check -top toy\nrename toy toy__mutants\n"
                  f"hierarchy -top toy__mutants\nproc\nflatten\nopt_expr\nopt_clean\nwrite_rtlil {prepared}\n")
        with open(os.path.join(cls.model, "mutate.ys"), "w") as f:
            f.write(script)
        subprocess.run(["yosys", "-q", "-s", os.path.join(cls.model, "mutate.ys")], check=True,
                       stdout=subprocess.DEVNULL)
        # (type, name, source spans relative to the toy's directory) of each flattened cell
        with open(prepared) as f:
            text = f.read()
        cells = [(t, n, [x.replace(cls.tmp + "/", "") for x in src.split("|")]) for src, t, n in
                 re.findall(r'^  attribute \\src "([^"]*)"\n  cell (\S+) (\S+)$', text, re.M)]

        def cell(kind, prefix):
            return next((n, spans) for t, n, spans in cells if t == kind and n.startswith(prefix))
        xor, xor_src = cell("$xor", "$flatten\\u_comb.")
        gt, gt_src = cell("$gt", "$flatten\\u_comb.")
        eq, eq_src = cell("$eq", "$flatten\\u_comb.")
        adds = [(n, spans) for t, n, spans in cells if t == "$add" and n.startswith("$flatten\\u_seq.")]
        line = lambda text: TOY.split("\n").index(next(l for l in TOY.split("\n") if text in l)) + 1
        on = lambda spans, text: any(re.search(rf"toy\.v:{line(text)}\.", x) for x in spans)
        add, add_src = next((n, sp) for n, sp in adds if on(sp, "r <= a + 4'd1"))
        inc, inc_src = next((n, sp) for n, sp in adds if on(sp, "wire [4:0] w"))
        gt2, gt2_src = cell("$gt", "$flatten\\u_seq.")
        flop, flop_src = next((n, sp) for t, n, sp in cells if t == "$adff")
        sflop, sflop_src = next((n, sp) for t, n, sp in cells if t == "$dff" and n.startswith("$flatten\\u_seq."))
        add2, add2_src = cell("$add", "$flatten\\u_ram.")
        add3, add3_src = cell("$add", "$flatten\\u_outer.\\u_inner.")
        mutants = [  # gen_mutants.py records every span of the flattened cell as `sources`
            {"id": 1, "mode": "inv", "cell": xor, "port": "Y", "portbit": 0, "location": xor_src[0], "sources": xor_src},
            {"id": 2, "mode": "const0", "cell": gt, "port": "Y", "portbit": 0, "location": gt_src[0], "sources": gt_src},
            {"id": 3, "mode": "inv", "cell": add, "port": "Y", "portbit": 1, "location": add_src[0], "sources": add_src},
            # the xor recorded with the comparison's spans: not the mutated cell
            {"id": 4, "mode": "inv", "cell": xor, "port": "Y", "portbit": 0, "location": gt_src[0], "sources": gt_src},
            # an older list without `sources`: the location alone decides (a wrong one here)
            {"id": 5, "mode": "inv", "cell": xor, "port": "Y", "portbit": 0, "location": "toy.v:3"},
            # registers cut: an unread adder bit is equivalent, a reachable-state invariant is not known
            {"id": 6, "mode": "const1", "cell": inc, "port": "Y", "portbit": 4, "location": inc_src[0], "sources": inc_src},
            {"id": 7, "mode": "const0", "cell": gt2, "port": "Y", "portbit": 0, "location": gt2_src[0], "sources": gt2_src},
            {"id": 8, "mode": "inv", "cell": flop, "port": "D", "portbit": 0, "location": flop_src[0], "sources": flop_src},
            # behind a memory: its read data is cut open like a flop's Q
            {"id": 9, "mode": "const1", "cell": add2, "port": "Y", "portbit": 4, "location": add2_src[0], "sources": add2_src},
            {"id": 10, "mode": "inv", "cell": add2, "port": "Y", "portbit": 0, "location": add2_src[0], "sources": add2_src},
            # differs only for a = 3 (the --assume runs)
            {"id": 12, "mode": "const0", "cell": eq, "port": "Y", "portbit": 0, "location": eq_src[0], "sources": eq_src},
            # a flop cell itself: s's D bit 3 is always 0 (s <= r & 7)
            {"id": 11, "mode": "const0", "cell": sflop, "port": "D", "portbit": 3, "location": sflop_src[0], "sources": sflop_src},
            # inside u_outer.u_inner: bit 3 of the sum is never read by outer (--lift 1), bit 0 is
            {"id": 13, "mode": "inv", "cell": add3, "port": "Y", "portbit": 3, "location": add3_src[0], "sources": add3_src},
            {"id": 14, "mode": "inv", "cell": add3, "port": "Y", "portbit": 0, "location": add3_src[0], "sources": add3_src},
        ]
        with open(os.path.join(cls.model, "mutants.json"), "w") as f:
            json.dump({"top": "toy", "count": len(mutants), "selector_width": 3, "mutants": mutants}, f)
        cls.out = os.path.join(cls.tmp, "out")
        cls.proc = run(["--model-dir", cls.model, "--mutants", "1,2,3,4,5,6,7,8,9,10,11,12,13,14", "--out", cls.out])
        with open(os.path.join(cls.out, "local_equiv.json")) as f:
            cls.verdicts = {m["id"]: m for m in json.load(f)["mutants"]}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_runs(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)

    def test_a_changed_output_differs_with_a_witness(self):
        v = self.verdicts[1]
        self.assertEqual(v["class"], "differs")
        self.assertEqual(v["instance"], "u_comb")
        w = v["witness"]
        self.assertNotEqual(w["gold_y"], w["gate_y"])
        a, b = int(w["in_a"], 2), int(w["in_b"], 2)
        want = b if a == 3 else a ^ b
        self.assertEqual(int(w["gold_y"], 2), want)  # the witness is the real function
        self.assertEqual(int(w["gate_y"], 2), want ^ 1)

    def test_an_unreachable_change_is_equivalent(self):
        self.assertEqual(self.verdicts[2]["class"], "equivalent")

    def test_a_changed_next_state_differs_with_registers_cut(self):
        v = self.verdicts[3]
        self.assertEqual(v["class"], "differs", v)
        self.assertEqual(v["registers_cut"], 2)
        w = v["witness"]
        state = lambda side: "".join(w[k] for k in sorted(w) if k.startswith(side + "___cut_d") and k.endswith("_d"))
        self.assertEqual(len([k for k in w if k.startswith("gold___cut_d")]), 4)  # D and CLK of two flops
        self.assertNotEqual(state("gold"), state("gate"))

    def test_an_unread_bit_behind_a_register_is_equivalent_with_registers_cut(self):
        self.assertEqual(self.verdicts[6]["class"], "equivalent", self.verdicts[6])
        self.assertEqual(self.verdicts[6]["registers_cut"], 2)

    def test_a_reachable_state_invariant_is_not_assumed(self):
        v = self.verdicts[7]  # s > 7 never holds from reset, but the cut lets the state be anything
        self.assertEqual(v["class"], "differs", v)

    def test_a_flop_cell_is_mutated_before_the_cut(self):
        self.assertEqual(self.verdicts[8]["class"], "differs", self.verdicts[8])  # r's next state flips a bit
        self.assertEqual(self.verdicts[11]["class"], "equivalent", self.verdicts[11])  # a bit that is 0 anyway
        self.assertEqual(self.verdicts[11]["registers_cut"], 2)

    def test_a_memory_is_cut_at_its_ports(self):
        self.assertEqual(self.verdicts[9]["class"], "equivalent", self.verdicts[9])
        self.assertEqual(self.verdicts[10]["class"], "differs", self.verdicts[10])
        w = self.verdicts[10]["witness"]
        self.assertTrue(any(k.startswith("in___cut_q") and k.endswith("_data") for k in w), w)  # read data is free
        self.assertNotEqual(w["gold_o"], w["gate_o"])

    def test_a_cell_whose_source_does_not_match_is_refused(self):
        for mid in (4, 5):
            v = self.verdicts[mid]
            self.assertEqual(v["class"], "not local", mid)
            self.assertIn("is not the mutated one", v["reason"])

    def test_waivers_name_each_equivalent_mutant_by_identity(self):
        args = [sys.executable, WAIVERS, "--model-dir", self.model, "--local",
                os.path.join(self.out, "local_equiv.json"), "--model", "small:toy", "--graded-at", "abc1234", "--source-root", self.tmp]
        p = subprocess.run(args, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        entries = p.stdout.split("  - model: ")[1:]
        self.assertEqual([int(re.search(r"# id (\d+) ", e).group(1)) for e in entries],
                         sorted(i for i, v in self.verdicts.items() if v["class"] == "equivalent"))
        e6 = next(e for e in entries if "# id 6 " in e)
        self.assertIn("    mode: const1\n", e6)
        self.assertIn("    bit: 4\n", e6)
        self.assertIn("    cell: '$flatten\\u_seq.$add$toy.v:", e6)  # no Yosys numbers, no directories
        self.assertNotRegex(e6, r"cell: .*\$\d+'")
        self.assertIn("with its 2 registers cut", e6)
        line = int(re.search(r"location: toy\.v:(\d+)\.", e6).group(1))
        self.assertIn("source line `" + TOY.split("\n")[line - 1].strip().replace("'", "''") + "`", e6)
        p = subprocess.run(args + ["--ids", "1"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("mutant 1 is not proved equivalent", p.stderr)
        p = subprocess.run(args[:5] + [os.path.join(self.tmp, "none.json")] + args[6:], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("none.json: not a local_equiv.json", p.stderr)
        p = subprocess.run(args[:-6] + ["--model", "toy", "--graded-at", "x"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("must be <config>:<unit>", p.stderr)

    def test_an_assumed_input_domain_limits_the_proof(self):
        self.assertEqual(self.verdicts[12]["class"], "differs")
        self.assertEqual(int(self.verdicts[12]["witness"]["in_a"], 2), 3)
        verdicts = {}
        for name, ok in (("not3", "a != 4'd3"), ("not5", "a != 4'd5")):
            path = os.path.join(self.tmp, name + ".v")
            with open(path, "w") as f:
                f.write(f"module local_equiv_domain(input [3:0] a, output ok);\n  assign ok = {ok};\nendmodule\n")
            out = os.path.join(self.tmp, "out_" + name)
            p = run(["--model-dir", self.model, "--mutants", "1,12", "--out", out, "--assume", path])
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(out, "local_equiv.json")) as f:
                verdicts[name] = {m["id"]: m for m in json.load(f)["mutants"]}
        self.assertEqual(verdicts["not3"][12]["class"], "equivalent")  # its only difference is excluded
        self.assertIn("not3.v", verdicts["not3"][12]["assumed"])
        self.assertEqual(verdicts["not5"][12]["class"], "differs")      # another exclusion hides nothing
        self.assertEqual(int(verdicts["not5"][12]["witness"]["a"], 2), 3)
        self.assertEqual(verdicts["not3"][1]["class"], "differs")       # b stays free though the domain omits it
        out = os.path.join(self.tmp, "out_not3_abc")  # the ABC engine honours the domain too
        p = run(["--model-dir", self.model, "--mutants", "12", "--out", out, "--engine", "abc", "--assume",
                 os.path.join(self.tmp, "not3.v")])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "local_equiv.json")) as f:
            self.assertEqual(json.load(f)["mutants"][0]["class"], "equivalent")
        out = os.path.join(self.tmp, "out_not5_abc")
        p = run(["--model-dir", self.model, "--mutants", "12", "--out", out, "--engine", "abc", "--assume",
                 os.path.join(self.tmp, "not5.v")])
        with open(os.path.join(out, "local_equiv.json")) as f:
            self.assertEqual(json.load(f)["mutants"][0]["class"], "differs")
        p = subprocess.run([sys.executable, WAIVERS, "--model-dir", self.model, "--local",
                            os.path.join(self.tmp, "out_not3", "local_equiv.json"), "--model", "small:toy",
                            "--graded-at", "x", "--source-root", self.tmp, "--ids", "12"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("for every input in the domain of not3.v", p.stdout)  # the waiver says what it rests on
        bad = os.path.join(self.tmp, "bad.v")
        with open(bad, "w") as f:
            f.write("module other(input a, output ok); endmodule\n")
        p = run(["--model-dir", self.model, "--mutants", "12", "--out", self.out, "--assume", bad])
        self.assertEqual(p.returncode, 2)
        self.assertIn("no module local_equiv_domain", p.stderr)

    def test_lifting_to_the_enclosing_instance_sees_what_it_reads(self):
        self.assertEqual(self.verdicts[13]["class"], "differs")  # the adder alone: its bit 3 is an output
        self.assertEqual(self.verdicts[14]["class"], "differs")
        out = os.path.join(self.tmp, "out_lift")
        p = run(["--model-dir", self.model, "--mutants", "1,13,14", "--lift", "1", "--out", out])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "local_equiv.json")) as f:
            v = {m["id"]: m for m in json.load(f)["mutants"]}
        self.assertEqual(v[13]["class"], "equivalent")  # outer never reads bit 3
        self.assertEqual((v[13]["instance"], v[13]["mutated_instance"], v[13]["lifted"]), ("u_outer", "u_outer.u_inner", 1))
        self.assertEqual(v[14]["class"], "differs")     # bit 0 reaches outer's output
        self.assertEqual((v[1]["class"], v[1]["instance"]), ("differs", "(the unit)"))  # u_comb lifts to the unit
        p = run(["--model-dir", self.model, "--mutants", "13", "--lift", "3", "--out", out])
        with open(os.path.join(out, "local_equiv.json")) as f:
            v = json.load(f)["mutants"][0]
        self.assertEqual(v["class"], "not local")       # two levels deep: nothing three levels up
        self.assertIn("fewer than 3 levels", v["reason"])

    def test_the_abc_engine_agrees_with_sat(self):
        out = os.path.join(self.tmp, "out_abc")
        p = run(["--model-dir", self.model, "--mutants", "1,2,6,13,14", "--engine", "abc", "--out", out])
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "local_equiv.json")) as f:
            v = {m["id"]: m for m in json.load(f)["mutants"]}
        for mid in (1, 2, 6, 13, 14):
            self.assertEqual(v[mid]["class"], self.verdicts[mid]["class"], f"mutant {mid}: {v[mid]}")
            self.assertEqual(v[mid].get("engine"), "abc", f"mutant {mid}: {v[mid]}")
        self.assertEqual(v[1]["witness"], {})  # ABC's difference comes without a witness
        p = run(["--model-dir", self.model, "--mutants", "13", "--engine", "abc", "--lift", "1", "--out", out])
        with open(os.path.join(out, "local_equiv.json")) as f:
            self.assertEqual(json.load(f)["mutants"][0]["class"], "equivalent")
        p = subprocess.run([sys.executable, WAIVERS, "--model-dir", self.model, "--local",
                            os.path.join(out, "local_equiv.json"), "--model", "small:toy", "--graded-at", "x",
                            "--source-root", self.tmp], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("the instance u_outer (outer)", p.stdout)  # the waiver says how it was proved
        self.assertIn("(ABC equivalence check on the combinational instance alone)", p.stdout)
        self.assertIn("the mutated instance u_outer.u_inner checked inside it, 1 level(s) up", p.stdout)

    def test_bad_input_exits_2_naming_the_rule(self):
        p = run(["--model-dir", os.path.join(self.tmp, "nowhere"), "--mutants", "1", "--out", self.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("mutate.ys missing", p.stderr)
        p = run(["--model-dir", self.model, "--mutants", "1,x", "--out", self.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("comma-separated", p.stderr)
        p = run(["--model-dir", self.model, "--mutants", "15", "--out", self.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("ids must lie in 1..14", p.stderr)
        p = run(["--model-dir", self.model, "--mutants", "1", "--lift", "-1", "--out", self.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--lift -1", p.stderr)
        p = run(["--model-dir", self.model, "--mutants", "1", "--timeout", "0", "--out", self.out])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--timeout", p.stderr)
        blocker = os.path.join(self.tmp, "a_file")
        open(blocker, "w").close()
        p = run(["--model-dir", self.model, "--mutants", "1", "--out", os.path.join(blocker, "out")])
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot create the output directory", p.stderr)


if __name__ == "__main__":
    unittest.main()
