"""τ-Emotion-Bench: one import namespace.

Each part lives in a top-level folder mounted under `taue` (`taue.layout.mounts()`, the one copy of
the mapping; tests/test_layout.py checks this table against it):

| package | folder | concern |
|---|---|---|
| `taue` | `taue/` | the namespace root: `taue.contracts` (what every part shares), `taue.deploy` |
| `taue.envs` | `envs/` | the domain servers (runtime + one folder per domain) and task sets |
| `taue.simulator` | `simulator/` | the emotional user simulator and its gRPC service |
| `taue.scorer` | `scorer/` | replay, reward, metrics and the gRPC scorer service |
| `taue.runner` | `agent-runner/` | episodes, the concurrent runner, agent adapters |
| `taue.proto` | `proto/` | gRPC contracts (`taue.v1`) and their generated stubs |
| `taue.tracer` | `tracer/` | the Tracer, the task factory, and training data from rollouts |
| `taue.report` | `report/` | failure attribution, the HTML report, the leaderboard, exports |
| `taue.cli` | `taue/cli/` | the `taue` command line |
"""
