"""Batch conversion: ``subcase convert`` and the GUI's batch dialog.

- ``options.ConvertOptions``: what is done to each file, one frozen value;
- ``plan``: where each output goes, decided once before any work (``plan_outputs``);
- ``inputs``: the files named or found in folders;
- ``driver.convert_batch``: the one entry point, which checks the plan and runs it on a back-end:
  in this process (``convert.run_in_process``), in worker processes (``pool``) or on a Dask
  cluster (``cluster``), each converting a file with ``convert.convert_file``.
"""

from .convert import BatchProgress, BatchResult, FileResult, write_details
from .driver import convert_batch
from .inputs import collect_batch_inputs, collect_inputs
from .options import ConvertOptions
from .plan import (BatchInput, Existing, OutputPlan, PlannedOutput, check_input_folders, check_report_path,
                   plan_outputs)
from .pool import SMALL_BATCH_BYTES, auto_jobs, default_jobs

__all__ = ["BatchInput", "BatchProgress", "BatchResult", "ConvertOptions", "Existing", "FileResult", "OutputPlan",
           "PlannedOutput", "SMALL_BATCH_BYTES", "auto_jobs", "check_input_folders", "check_report_path", "collect_batch_inputs",
           "collect_inputs", "convert_batch", "default_jobs", "plan_outputs", "write_details"]
