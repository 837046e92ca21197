"""Errors of the agreement analysis: inconsistent answer streams or options (exit code 2 in the CLI)."""

from __future__ import annotations

from lars.errors import RsplarsError


class AgreementError(RsplarsError):
    """The answers or options given to the agreement analysis do not fit its definition (Dao-Tran, Beck, Eiter 2015, §5)."""
