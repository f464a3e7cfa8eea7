"""Headless Chromium for the report tests: every page is rendered once as a reader sees it."""
import os
import shutil
import subprocess

import pytest


def chromium() -> str:
    """The Chromium executable; skips the test when there is none, unless the environment
    requires it (SKYPRIVACY_REQUIRE_CHROMIUM=1, as CI sets), where it fails."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("SKYPRIVACY_REQUIRE_CHROMIUM") == "1":
        pytest.fail("SKYPRIVACY_REQUIRE_CHROMIUM=1 but no chromium on PATH (Debian: apt-get "
                    "install chromium)")
    pytest.skip("chromium is not installed (Debian: apt-get install chromium)")


def headless(browser, profile, *arguments):
    """Run ``browser`` headless with its own profile directory and no network chatter."""
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", *arguments],
        capture_output=True, text=True, timeout=120)
