"""The names of the operational parameters, without the code that uses them: what the command
line needs to build its options (``--profile``, ``--cc-mode``, ``--tick``, ``--empty-relations``)
without loading :mod:`translator.evaluate.profiles` and :mod:`translator.evaluate.report_policy`
at every start-up (docs/performance.md, "Start-up"). Those two modules take their names from here;
``tests/cli/test_startup.py`` checks that ``PROFILE_NAMES`` lists the profiles of
:data:`translator.evaluate.profiles.PROFILES` in their order.
"""

#: the engine profiles (Dell'Aglio et al. 2013, §3, Table 1), in the order ``rsplars profiles`` lists them
PROFILE_NAMES = ("csparql", "cqels", "sparqlstream", "rsp-ql", "rsp4j", "rsp-js")
#: the readings of a content change (Dell'Aglio et al. 2014, Definition 23)
CC_MODES = ("arrivals", "strict")
#: the ticks (Dell'Aglio et al. 2013, §3)
TICKS = ("tuple", "time", "batch")
#: empty-relation notification (Dell'Aglio et al. 2013, §3)
EMPTY_RELATIONS = ("emit", "skip")
#: window alignment: ``t0`` — windows open at t0 + i·β (Dell'Aglio et al. 2014, Definition 13);
#: ``step`` — windows close at t0 + k·β, k ≥ 1, the first opening at t0 + β − α (RSP4J, RSP-JS)
ALIGNMENTS = ("t0", "step")
#: the observation horizon: ``none`` — every window holding data closes and is reported; ``last`` —
#: the engine's clock stands at its last element (a given time T is written as the number)
HORIZONS = ("none", "last")
