"""FLOPs are counted without importing torch._dynamo (a 1.7 s import whose GIL-held stretches
froze the window's GUI thread in the per-module phase), and the count is FlopCounterMode's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import torch
from torch.utils.flop_counter import FlopCounterMode

from inspector.core.files.models import load_model
from inspector.core.measure.attribution import measure_attribution
from inspector.core.measure.flop_count import count_flops
from inspector.core.measure.model_input import as_args, make_input


def test_a_per_module_run_in_a_fresh_process_never_imports_dynamo() -> None:
    # A fresh interpreter: in this one another test may have imported torch._dynamo already.
    script = textwrap.dedent(
        """
        import json, sys
        from inspector.core.files.models import load_model
        from inspector.core.measure.attribution import measure_attribution
        from inspector.core.measure import flop_count
        # As the window loads it: the optimizer (whose constructor imports dynamo) made on need.
        run = measure_attribution(load_model("example", defer_optimizer=True), runs=3, warmup=1)
        left = [fn for fn in flop_count._dispatch_functions() if hasattr(fn, flop_count._CACHE)]
        print(json.dumps({"dynamo": "torch._dynamo" in sys.modules, "flops": run.total_flops,
                          "wrapped": len(flop_count._dispatch_functions()), "left": len(left)}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["dynamo"] is False
    assert seen["flops"] > 0
    # Torch's lazy wrapper is left as torch made it, so a later torch.compile behaves as torch's.
    assert seen["left"] == 0


def test_the_count_is_flop_counter_modes_own() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    x = torch.randn(4, 32)
    with FlopCounterMode(display=False) as reference:
        model(x)
    total, by_module = count_flops(model, (x,))
    assert total == reference.get_total_flops() == 2 * 4 * 32 * 64 + 2 * 4 * 64 * 8
    assert by_module["Sequential.0"] == 2 * 4 * 32 * 64
    assert by_module["Sequential.2"] == 2 * 4 * 64 * 8


def test_the_example_models_flops_reach_the_attribution() -> None:
    loaded = load_model("example")
    run = measure_attribution(loaded, runs=2, warmup=1)
    total, _ = count_flops(loaded.module, as_args(make_input(loaded, None)))
    assert run.total_flops == total


def test_prepare_does_the_counters_one_time_set_up_once_before_a_run() -> None:
    # Issue 46 item 4: the window calls it before its per-module run's quiet window. With dynamo
    # imported (as an optimizer's constructor imports it), torch's disable wrapper is made and
    # cached there; without, nothing of torch's is left changed and dynamo stays unimported.
    script = textwrap.dedent(
        """
        import json, sys
        import torch
        from inspector.core.measure import flop_count
        flop_count.prepare()
        plain = {"dynamo": "torch._dynamo" in sys.modules,
                 "cached": [hasattr(fn, flop_count._CACHE) for fn in flop_count._dispatch_functions()]}
        import torch._dynamo
        flop_count._prepared.clear()
        flop_count.prepare()
        cached = [hasattr(fn, flop_count._CACHE) for fn in flop_count._dispatch_functions()]
        flop_count.prepare()  # once per process: nothing more
        print(json.dumps({"plain": plain, "cached": cached, "prepared": len(flop_count._prepared)}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["plain"] == {"dynamo": False, "cached": [False] * len(found["cached"])}
    assert found["cached"] and all(found["cached"]) and found["prepared"] == 1
