"""The live engines by name (``--live-engine NAME``): ``rsp-js``, ``command`` (with ``--engine-command``)
and ``rsplars[:PROFILE]``."""

from __future__ import annotations

from translator.engines.command import CommandEngine
from translator.engines.protocol import Engine, EngineError
from translator.engines.rsp_js import RspJsEngine
from translator.engines.rsplars_run import RsplarsEngine

NAMES = ("rsp-js", "command", "rsplars[:PROFILE]")


def engine_named(spec: str, *, base_unit: str, command: str | None = None, output_format: str = "auto",
                 time_unit: str | None = None) -> Engine:
    """The engine ``spec`` names; ``command``, ``output_format`` and ``time_unit`` (default: the base
    unit) describe a ``command`` engine."""
    name, _, profile = spec.partition(":")
    if name == "rsp-js" and not profile:
        return RspJsEngine()
    if name == "command" and not profile:
        if command is None:
            raise EngineError("--live-engine command needs --engine-command 'PROGRAM ARGS…' (docs/engines.md)")
        return CommandEngine(command, output_format, time_unit or base_unit)
    if name == "rsplars":
        from translator.evaluate.profiles import PROFILES

        if profile and profile not in PROFILES:
            raise EngineError(f"--live-engine {spec!r}: unknown profile {profile!r} (expected one of "
                              f"{', '.join(PROFILES)}; see rsplars profiles)")
        return RsplarsEngine(base_unit, profile or None)
    raise EngineError(f"--live-engine {spec!r}: unknown engine (expected {', '.join(NAMES)})")
