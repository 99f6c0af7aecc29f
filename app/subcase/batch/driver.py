"""The one entry point of every batch: ``subcase convert`` (with or without ``--jobs`` and
``--cluster``) and the GUI's batch dialog all call ``convert_batch``.

In order, before any file is read: the output plan is checked (the only time:
the back-ends and ``convert_file`` trust it), the ``--details`` file is
checked against the plan (a plan that converts nothing ends there, without a
model), the model's card is read (once: the engine, the
worker processes and the Dask workers' model check all get this reading), and
the profile and term lists are resolved.  Then one back-end runs the plan:

- in this process, with all the engine's threads: one job, or one file to case;
- ``pool``: ``jobs`` worker processes on this machine;
- ``cluster``: a Dask cluster.

Each gives the same outputs, the same results in input order and so the same
FAILED lines and exit status.  Last, the details file is written.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable

from subcase.casing.engine import ModelInfo, ShouldCancel, load_model_info

from .convert import BatchResult, FileResult, ProgressFn, check_plan, run_in_process, unconverted, write_details
from .options import ConvertOptions
from .plan import OutputPlan, check_report_path

if TYPE_CHECKING:
    from subcase.casing import CasingEngine

__all__ = ["convert_batch"]

EngineFactory = Callable[[], "CasingEngine"]
DEFAULTS = ConvertOptions()


def convert_batch(plan: OutputPlan, options: ConvertOptions = DEFAULTS,
                  progress: ProgressFn | None = None, on_file_done: Callable[[FileResult], None] | None = None,
                  cancel: ShouldCancel | None = None, engine: EngineFactory | None = None) -> BatchResult:
    """Convert every input of ``plan`` as ``options`` say (see the module's docstring).

    ``progress(file_index, n_files, done_in_file, total_in_file)``; ``on_file_done(result)`` in
    input order; ``cancel()`` stops between two batches of windows.  ``engine()`` gives the engine
    of an in-process run (the GUI's shared one); without it the driver loads one.

    Raises a ``SubcaseError`` when the run cannot start (a plan with taken names nobody answered
    for, a details file that would replace an input or an output, a missing model, a bad profile or
    term list, an unreachable cluster), ``ModelError`` when workers cannot load the model, and
    KeyboardInterrupt on Ctrl-C after stopping the workers.
    """
    check_plan(plan)
    if options.details is not None:
        planned = [p.dst for p in plan if p.dst is not None]
        check_report_path(options.details, "--details", plan.sources, planned, folders=[plan.out_dir])
    converting = sum(e.converts for e in plan)
    if not converting:  # every input failed its plan or is skipped: their lines come without loading a model
        result = _without_casing(plan, progress, on_file_done)
        if options.details is not None:
            write_details(options.details, result.results)
        return result
    jobs = options.jobs
    if jobs is None:
        from .pool import auto_jobs
        jobs = auto_jobs(plan.sources)
    in_process = options.cluster is None and (jobs <= 1 or converting <= 1)
    eng: CasingEngine | None = engine() if in_process and engine is not None else None
    # a missing model fails here, before any worker starts; the engine reads no card of its own
    info: ModelInfo = eng.info if eng is not None else load_model_info(options.model_dir)
    if options.wants_profile:
        from subcase.review.profiles.stored import profile_for
        # a list that cannot be read stops the run before any file is cased; --terms never writes the stored profile
        profile = profile_for(options.profile_name, info.version, options.terms, options.profile)
        options = dataclasses.replace(options, profile=profile, profile_name=None, terms=())
    if options.cluster is not None:
        from .cluster import run_on_cluster
        result = run_on_cluster(plan, options, info, progress, on_file_done, cancel)
    elif in_process:
        if eng is None:
            from subcase.casing import CasingEngine

            eng = CasingEngine(options.model_dir, info=info)
        result = _run_in_process_until_ctrl_c(eng, plan, options, progress, on_file_done, cancel)
    else:
        from .pool import run_in_pool
        result = run_in_pool(plan, options, info, jobs, progress, on_file_done, cancel)
    if options.details is not None:
        write_details(options.details, result.results)
    return result


def _without_casing(plan: OutputPlan, progress: ProgressFn | None,
                    on_file_done: Callable[[FileResult], None] | None) -> BatchResult:
    """The results of a plan that converts nothing (``-o`` at the inputs' own folder, every output
    skipped), reported as a back-end reports them."""
    results = [unconverted(planned) for planned in plan]
    for i, r in enumerate(results):
        if progress is not None:
            progress(i, len(results), 1, 1)
        if on_file_done is not None:
            on_file_done(r)
    return BatchResult(results)


def _run_in_process_until_ctrl_c(eng: CasingEngine, plan: OutputPlan, options: ConvertOptions,
                                 progress: ProgressFn | None, on_file_done: Callable[[FileResult], None] | None,
                                 cancel: ShouldCancel | None) -> BatchResult:
    """``run_in_process`` with Ctrl-C taken as a cancel (between two batches of windows, or two
    files), then raised as KeyboardInterrupt: a file written is always a file reported, so the
    count the CLI prints after an interrupt is the count on disk."""
    from .pool import deferred_ctrl_c

    with deferred_ctrl_c() as ctrl_c:
        def stop() -> bool:
            return ctrl_c.is_set() or (cancel is not None and cancel())

        result = run_in_process(eng, plan, options, progress, on_file_done, stop)
    if ctrl_c.is_set():
        raise KeyboardInterrupt
    return result
