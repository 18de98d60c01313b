"""What a lesson saw, in sentences of the window's language: the lessons panel shows them, and
the history's row for a lesson (``follows``) leads with the first. Its words keep the translation
context "Lessons" of the panel they were said in before."""

from __future__ import annotations

from typing import Any

from inspector.core import lessons as core
from inspector.gui.common.i18n import core_text, fill, translate


def _yes_no(value: bool) -> str:
    return translate("Lessons", "yes") if value else translate("Lessons", "no")


def _next_step_lines(facts: Any) -> list[str]:
    """Lesson 4: what the next ``optimizer.step()`` after the move really did, here."""
    if facts.next_step_error_type:
        return [translate("Lessons", "Its next optimizer.step(), after the move, stopped. PyTorch's message:"),
                f"  {facts.next_step_error_type}: {facts.next_step_error}"]  # fmt: skip
    if not facts.next_step_state:
        return []
    return [fill(translate("Lessons", "Its next optimizer.step(), after the move, ran without an error or a warning: "
                                      "the parameters are %1, its state is still %2, and nothing said so."),
                 ", ".join(sorted(set(facts.next_step_parameters))) or "—",
                 ", ".join(sorted(set(facts.next_step_state))))]  # fmt: skip


def answer_lines(number: int, facts: Any) -> list[str]:
    """What lesson ``number`` saw, in sentences of the window's language."""
    if number == 1:
        if facts.cuda_available:
            gpus = facts.gpu_count  # (a plain name: lupdate misses a plural whose count is an attribute)
            return [fill(translate("Lessons", "torch.cuda.is_available() is True: device is %1."), facts.device),
                    translate("Lessons", "PyTorch sees %n GPU(s).", None, gpus)]
        return [fill(translate("Lessons", "torch.cuda.is_available() is False: device is %1."), facts.device),
                fill(translate("Lessons", "Why: %1"), core_text(facts.reason) if facts.reason else "—"),
                translate("Lessons", "Code written with .to(device) runs here unchanged; on a GPU machine the same "
                                     "line picks cuda:0.")]  # fmt: skip
    if number == 2:
        moved, stayed = facts.moved, facts.stayed
        lines = [
            fill(translate("Lessons", "y = x.to(\"%1\"): y is a new tensor on %2; x is still on %3 (y is x: %4)."),
                 moved.target, moved.y_device, moved.x_device_after, _yes_no(moved.same_object)),
            fill(translate("Lessons", "x.to(\"%1\") where x already is returns x itself (y is x: %2): PyTorch copies "
                                      "only when something changes."), stayed.target, _yes_no(stayed.same_object)),
        ]  # fmt: skip
        for module in facts.modules:
            where = translate("Lessons", "the live model") if module.live else translate("Lessons", "a copy")
            lines.append(fill(
                translate("Lessons", "net.to(%1) on %2: returned net itself: %3; the same parameter objects: %4; "
                                     "new data: %5 (%6 → %7)."),
                module.call, where, _yes_no(module.returned_same_module), _yes_no(module.same_parameters),
                _yes_no(module.new_data), module.before[0] if module.before else "—",
                module.after[0] if module.after else "—",
            ))  # fmt: skip
        if len(facts.modules) > 1:
            lines.append(translate("Lessons", "No GPU here: the model is already on the CPU, so the lesson also casts "
                                              "a copy to torch.float64, which converts each parameter in place as a "
                                              "move to a GPU does."))
        return lines
    if number == 3:
        if facts.cuda_ok:
            lines = [translate("Lessons", ".cuda() worked: this machine has a GPU.")]
        else:
            lines = [translate("Lessons", ".cuda() failed here. PyTorch's message:"),
                     f"  {facts.cuda_error_type}: {facts.cuda_error}"]
        ok = facts.to_ok
        lines.append(fill(translate("Lessons", ".to(\"%1\") worked: %2."), facts.device, _yes_no(ok)))
        return lines
    if number == 4:
        lines = [
            fill(translate("Lessons", "Made after the move (to %1), after one step its state is: %2."),
                 facts.target, ", ".join(sorted(set(facts.after_state))) or "—"),
            fill(translate("Lessons", "Stepped before the move, its state stayed: %1."),
                 ", ".join(sorted(set(facts.before_state))) or "—"),
        ]  # fmt: skip
        if facts.before_finding:
            lines.append(fill(translate("Lessons", "The placement check says: %1"), core_text(facts.before_finding)))
        lines += _next_step_lines(facts)
        if facts.target.startswith("torch."):
            lines.append(translate("Lessons", "No GPU here, so the move is a cast to torch.float64: Module.to converts "
                                              "the parameters the same way, and leaves the optimizer's state behind "
                                              "the same way. Both runs use copies of the example: the live model is "
                                              "unchanged."))
            lines.append(translate("Lessons", "On a GPU the state would stay on the CPU with the parameters on cuda:0, "
                                              "and the next step would not run: on CUDA, SGD takes its multi-tensor "
                                              "path (torch._foreach_* kernels) by default, which checks that each "
                                              "parameter and its state are on one device, and stops with PyTorch's "
                                              "message:"))
            lines.append(f"  RuntimeError: {core.GPU_OPTIMIZER_STATE_MISMATCH}")
        return lines
    if number == 5:
        lines = [fill(translate("Lessons", "The model is on %1; the input was on %2. PyTorch said:"),
                      facts.model_device, facts.input_device),
                 f"  {facts.error_type}: {facts.error}"]  # fmt: skip
        if facts.input_device.startswith("meta") or facts.model_device.startswith("meta"):
            lines.append(fill(translate("Lessons", "(No GPU here, so the lesson used the meta device. On a GPU "
                                                   "machine the message reads: %1)"), core.GPU_DEVICE_MISMATCH))
        lines.append(fill(translate("Lessons", "The fix, the input on %1: an output of shape %2 on %3."),
                          facts.model_device, tuple(facts.fixed_output_shape), facts.fixed_output_device))
        return lines
    return []
