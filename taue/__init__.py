"""τ-Emotion-Bench: one import namespace.

| package | folder | concern |
|---|---|---|
| `taue.envs` | `envs/` | the domain servers (runtime + one folder per domain) and task sets |
| `taue.simulator` | `simulator/` | the emotional user simulator and its gRPC service |
| `taue.scorer` | `scorer/` | replay, reward, metrics and the gRPC scorer service |
| `taue.runner` | `agent-runner/` | episodes, the concurrent runner, agent adapters |
| `taue.proto` | `proto/` | gRPC contracts (`taue.v1`) and their generated stubs |
| `taue.cli` | `taue/cli/` | the `taue` command line |
"""
