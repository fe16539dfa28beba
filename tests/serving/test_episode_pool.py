"""EpisodePool: tokens, the cap, reaping idle episodes."""

from __future__ import annotations

import time

import pytest

from fdegym_env.serving.episode_pool import EpisodePool, PoolError
from tests.conftest import TINY


def test_pool_caps_reaps_and_forgets():
    pool = EpisodePool(max_episodes=1, idle_timeout_s=0.5, tasks=[TINY])
    try:
        token, host = pool.start(TINY, seed=0)
        ws = host.workspace
        assert ws.is_dir() and "Brief" in host.brief
        with pytest.raises(PoolError, match="already running"):
            pool.start(TINY)
        with pytest.raises(PoolError, match="not served here"):
            pool.start("news_incident")
        assert pool.act(token, {"tool": "list_files"}).valid
        time.sleep(0.7)
        assert pool.reap() == [token]
        assert not ws.exists() and host.closed
        with pytest.raises(PoolError, match="no live episode"):
            pool.get(token)
        token2, host2 = pool.start(TINY, seed=1)  # the reaped one no longer counts
        step = pool.act(token2, {"tool": "submit"})
        assert step.ended and step.result["end_reason"] == "submitted"
        assert host2.closed and not host2.workspace  # an ended episode gives its workspace back at once
        after = pool.act(token2, {"tool": "list_files"})
        assert after.already_ended and after.result == step.result
        assert pool.live_count() == 0
    finally:
        pool.close()
