"""The refusal enumeration counts the statements on the resolution path and nothing else (refusals.py),
checked on a small package laid out like SGLang's (no kit needed)."""
import os
import textwrap

from . import refusals as R

FILES = {
    "sglang/srt/server_args.py": '''
        from sglang.srt.speculative.spec_info import dispatch

        class ServerArgs:
            def resolve_once(self):
                from sglang.srt.arg_groups.pipeline import run
                run(self)

            def check_server_args(self):
                assert self.tp_size > 0, "on the path: check_server_args"

        def prepare_server_args(argv):
            return ServerArgs()

        class PortArgs:
            @staticmethod
            def init_new(server_args):
                raise ValueError("off the path: ports")

        def get_global_server_args():
            raise RuntimeError("off the path: the scheduler's accessor")
    ''',
    "sglang/srt/arg_groups/pipeline.py": '''
        from sglang.srt.arg_groups.hooks import handle_a

        def run(server_args):
            run_hook(handle_a, server_args)
            dispatch(server_args)
    ''',
    "sglang/srt/arg_groups/hooks.py": '''
        def handle_a(server_args):
            if server_args.x:
                raise ValueError("on the path: passed to run_hook by name")

        def _handle_b(server_args):
            raise ValueError("on the path: called back from another sglang module")

        def unused_helper():
            raise ValueError("off the path: nobody calls it")

        def register_model_override(arch):
            return lambda fn: fn

        @register_model_override("X")
        def _x_overrides(server_args, cfg):
            raise ValueError("on the path: a registered model override")

        def _refuse_import():
            raise ImportError("not a refusal")
    ''',
    "sglang/srt/speculative/spec_info.py": '''
        def dispatch(server_args):
            from sglang.srt.arg_groups.hooks import _handle_b
            _handle_b(server_args)
            raise ValueError("outside the scope's files: not counted")
    ''',
}


def test_only_statements_on_the_path_are_counted(tmp_path, monkeypatch):
    for rel, text in FILES.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.setattr(R, "source_root", lambda version: str(tmp_path / "sglang"))
    on = [r["message"] for r in R.enumerate_refusals("test") if r["kind"] != "argparse"]
    off = [r["message"] for r in R.off_path_refusals("test")]
    assert sorted(m.split(":")[0] for m in on) == ["on the path"] * 4, on
    assert sorted(off) == ["off the path: nobody calls it", "off the path: ports",
                           "off the path: the scheduler's accessor"], off
    assert len([r for r in R.enumerate_refusals("test") if r["kind"] == "argparse"]) == len(R.ARGPARSE_KINDS)
    assert not any("outside" in m or "not a refusal" in m for m in on + off)
    assert os.path.basename(R.enumerate_refusals("test")[0]["file"]).endswith(".py")
