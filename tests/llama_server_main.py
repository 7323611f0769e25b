"""`python -m llama_cpp.server` with llama.cpp's extra weight buffer types turned off.

llama.cpp 0.3.36 built natively on a CPU with AMX repacks quantised weights into an AMX buffer and
crashes (SIGSEGV) on the first completion; the plain CPU buffers serve SmolLM2 just as well. The
server takes no option for it, so its default model parameters are wrapped here before it starts.
"""

import runpy

import llama_cpp.llama_cpp as bindings

_defaults = bindings.llama_model_default_params


def _without_extra_buffers() -> bindings.llama_model_params:
    params = _defaults()
    params.use_extra_bufts = False
    return params


bindings.llama_model_default_params = _without_extra_buffers
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
