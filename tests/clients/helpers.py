"""Helpers of the generated-client tests."""

from __future__ import annotations


def report(request, line: str) -> None:
    """A figure on the terminal whatever the output capturing (the generation time)."""
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(f"\n[generated client] {line}", flush=True)
