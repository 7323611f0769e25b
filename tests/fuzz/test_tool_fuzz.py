"""Property-based fuzzing of every tool of every domain, over real MCP, on real domain servers.

Each example starts from the fuzzed episode's initial state (it is reset after any call that succeeded),
makes one call with Hypothesis-drawn arguments (see tool_arguments.py), and then checks:
- no server fault: no HTTP 5xx, no dropped connection, no internal JSON-RPC error, no "internal error"
  or traceback text (a tool error result or an invalid-params error is a fine answer);
- no hang: every request answers within `CALL_TIMEOUT_S`;
- a call that failed left the episode's state hash as it was, and the server logged it as failed;
- isolation: a second episode of the same server, never called, keeps its initial state hash.

Budget: `TAUE_FUZZ_EXAMPLES` examples per tool (default 4; docs/reliability.md has the long soak).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from taue.envs.runtime.discovery import domain_names, get_domain
from tests.fuzz.live_servers import (
    TALLY,
    BackgroundLoop,
    Control,
    Episode,
    LiveDomains,
    fuzz_examples,
    fuzz_settings,
    soak_timeout_s,
)
from tests.fuzz.mcp_calls import CallOutcome, EpisodeCaller
from tests.fuzz.tool_arguments import json_values, texts, tool_arguments, tool_surface

TOOLS = [
    pytest.param(
        domain, tool.__name__, id=f"{domain}-{tool.__name__}", marks=pytest.mark.xdist_group(f"fuzz-{domain}")
    )
    for domain in domain_names()
    for tool in get_domain(domain).tools
]
DOMAINS = [pytest.param(d, id=d, marks=pytest.mark.xdist_group(f"fuzz-{d}")) for d in domain_names()]
RESET_AFTER_CALLS = 50
"""Failed calls between resets at most (the tool log keeps growing otherwise)."""


@dataclass
class DomainRig:
    """One domain server with a fuzzed episode and a bystander episode that is never called."""

    name: str
    control: Control
    episode: Episode
    bystander: Episode
    caller: EpisodeCaller
    initial_hash: str
    bystander_hash: str
    logged: int = 0
    """Calls in the fuzzed episode's tool log."""
    pristine: bool = True
    """The fuzzed episode is as a reset leaves it (only failed calls since, its log aside)."""

    def check_call(self, tool_name: str, arguments: Any) -> CallOutcome:
        """One fuzzed call on the episode in its initial state, with every property checked."""
        # A reset after every call that may have changed something (one that succeeded, or broke a
        # property) keeps the examples independent; after a failed call the state is checked unchanged.
        if not self.pristine or self.logged >= RESET_AFTER_CALLS:
            self.control.reset(self.episode.episode_id)
            self.logged = 0
        self.pristine = False
        outcome = self.caller.call(tool_name, arguments)
        note(f"{self.name}.{tool_name} -> {outcome!r}")
        fault = outcome.server_fault()
        assert fault is None, f"{self.name}.{tool_name}: {fault}"
        if outcome.failed:
            assert self.control.state_hash(self.episode.episode_id) == self.initial_hash, (
                f"{self.name}.{tool_name}: a failed call changed the episode's state"
            )
        if outcome.result_error is not None:
            self._check_logged(tool_name, outcome)
        assert self.control.state_hash(self.bystander.episode_id) == self.bystander_hash, (
            f"{self.name}.{tool_name}: a call on one episode changed another episode"
        )
        self.pristine = outcome.failed
        TALLY["tool calls, failed" if outcome.failed else "tool calls, succeeded"] += 1
        return outcome

    def _check_logged(self, tool_name: str, outcome: CallOutcome) -> None:
        """The server logged the call, with the outcome the agent saw."""
        page = self.control.tool_log(self.episode.episode_id, since=self.logged)
        assert page["calls"], f"{self.name}.{tool_name}: the call is not in the tool log"
        last = page["calls"][-1]
        assert (last["name"], last["ok"]) == (tool_name, not outcome.failed), last
        assert not (outcome.failed and last["writes"]), f"{tool_name}: a failed call counted as a write"
        self.logged = page["total"]

    def close(self) -> None:
        self.caller.close()
        self.control.close()


class Rigs:
    """`DomainRig`s made on first use, each on its domain's shared server."""

    def __init__(self, loop: BackgroundLoop, domains: LiveDomains) -> None:
        self.loop, self.domains = loop, domains
        self._rigs: dict[str, DomainRig] = {}

    def get(self, name: str) -> DomainRig:
        if name not in self._rigs:
            server = self.domains.server(name)
            control = Control(server.control_url, server.admin_token)
            episode, bystander = control.new_episode(), control.new_episode()
            self._rigs[name] = DomainRig(
                name=name,
                control=control,
                episode=episode,
                bystander=bystander,
                caller=EpisodeCaller(self.loop, episode),
                initial_hash=control.state_hash(episode.episode_id),
                bystander_hash=control.state_hash(bystander.episode_id),
            )
        return self._rigs[name]

    def close(self) -> None:
        for rig in self._rigs.values():
            rig.close()


@pytest.fixture(scope="module")
def rigs() -> Iterator[Rigs]:
    loop = BackgroundLoop()
    domains = LiveDomains(loop)
    made = Rigs(loop, domains)
    try:
        yield made
    finally:
        made.close()
        domains.close()
        loop.close()


@pytest.mark.timeout(soak_timeout_s(fuzz_examples(4)))
@pytest.mark.parametrize(("domain_name", "tool_name"), TOOLS)
def test_tool_survives_fuzzed_calls(rigs: Rigs, domain_name: str, tool_name: str) -> None:
    rig = rigs.get(domain_name)
    outcomes: list[CallOutcome] = []

    @fuzz_settings(fuzz_examples(4))
    @given(arguments=tool_arguments(tool_surface(domain_name, tool_name)))
    def one_call(arguments: Any) -> None:
        outcomes.append(rig.check_call(tool_name, arguments))

    one_call()
    assert len(outcomes) >= min(fuzz_examples(4), 2), "Hypothesis ran (almost) no examples"


@pytest.mark.timeout(soak_timeout_s(fuzz_examples(8)))
@pytest.mark.parametrize("domain_name", DOMAINS)
def test_unknown_tool_names_are_refused(rigs: Rigs, domain_name: str) -> None:
    rig = rigs.get(domain_name)
    own = set(get_domain(domain_name).mcp_tools)
    names = st.one_of(
        texts, st.sampled_from(sorted(n for d in domain_names() for n in get_domain(d).mcp_tools))
    )

    @fuzz_settings(fuzz_examples(8))
    @given(name=names.filter(lambda name: name not in own), arguments=st.dictionaries(texts, json_values))
    def one_call(name: str, arguments: dict[str, Any]) -> None:
        assert rig.check_call(name, arguments).failed, f"{domain_name} ran a tool it does not have: {name!r}"

    one_call()


@pytest.mark.xdist_group("fuzz-retail")
def test_lone_surrogates_in_arguments_keep_the_control_port_serving(rigs: Rigs) -> None:
    """JSON may carry lone surrogates as \\u escapes; UTF-8 cannot. The call is the agent's fault, so the
    MCP answer may be an error, but the tool log and the state must still be served."""
    rig = rigs.get("retail")
    rig.pristine = False  # whatever this call does, the next example starts from a reset
    # Its own connections: a 500 may close them.
    control = Control(rig.control.base_url, rig.control.admin_token)
    try:
        control.reset(rig.episode.episode_id)
        outcome = rig.caller.call_raw("think", {"thought": "half a pair: \ud800"})
        assert outcome.server_fault() is None, outcome
        logged = control.tool_log(rig.episode.episode_id)["calls"]
        assert outcome.result_error is None or len(logged) == 1, logged
        assert control.state_hash(rig.episode.episode_id) == rig.initial_hash
    finally:
        control.close()
