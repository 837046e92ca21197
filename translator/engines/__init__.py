"""Real RSP engines run by rsplars: adapters that start an engine on a query, its timestamped streams
and static data, and hand back its output as a recorded output that :mod:`translator.agreement` judges
(``rsplars check --live-engine``, ``rsplars agree --live-engine``; docs/engines.md).

:mod:`.protocol` is the interface (:class:`~.protocol.Engine`, :class:`~.protocol.EngineInput`,
:class:`~.protocol.EngineOutput`); :mod:`.inputs` writes the streams an engine reads; the adapters are
:mod:`.rsp_js` (the bundled RSP-JS runner, ``engines/rsp-js/run.js``), :mod:`.command` (any command
line with placeholders, e.g. a YASPER or C-SPARQL jar) and :mod:`.rsplars_run` (``rsplars run`` under a
profile, the reference side of a live comparison); :func:`.registry.engine_named` picks one by name.
"""

from __future__ import annotations

from translator.engines.protocol import Engine, EngineError, EngineInput, EngineOutput, StreamFile
from translator.engines.registry import engine_named

__all__ = ["Engine", "EngineError", "EngineInput", "EngineOutput", "StreamFile", "engine_named"]
