"""The mutant list of a gen_mutants.py model directory and a --mutants id list, shared by the
triage scripts (formal_triage.py, local_equiv.py). Both call `fail` with the rule broken."""
import json
import os


def load_mutant_list(model_dir, fail):
    """mutants.json of `model_dir` (top, count, selector_width, mutants)."""
    try:
        with open(os.path.join(model_dir, "mutants.json")) as f:
            meta = json.load(f)
        meta["top"], meta["count"], meta["selector_width"], meta["mutants"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{model_dir}/mutants.json: not a gen_mutants.py mutant list ({e})")
    return meta


def parse_ids(text, count, fail):
    """The ids of a comma-separated --mutants list, each in 1..count."""
    try:
        ids = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        fail(f"--mutants {text!r}: not a comma-separated list of ids")
    bad = [i for i in ids if not 1 <= i <= count]
    if bad or not ids:
        fail(f"--mutants: ids must lie in 1..{count} (got {bad or 'none'})")
    return ids
