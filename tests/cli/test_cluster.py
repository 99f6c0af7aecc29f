"""``subcase convert --cluster``: a real Dask LocalCluster (two worker processes on
127.0.0.1) gives the outputs, FAILED lines and exit status of a single process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_parallel import EXPECTED_FAILED, GOOD, ROOT, make_folder, plan_for, same_but_time, tree

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")

pytestmark = pytest.mark.model  # every worker loads the shipped model


@pytest.fixture(scope="module")
def cluster():
    # loopback only; the HTTP endpoint on a free loopback port (two clusters may run at once)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", silence_logs=40) as c:
        yield c


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="3s")  # the installed subcase
    return subprocess.run([sys.executable, "-m", "subcase", "convert", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


@pytest.mark.usefixtures("engine")
def test_cluster_gives_what_one_process_gives(cluster, tmp_path):
    make_folder(tmp_path / "a")
    make_folder(tmp_path / "b")
    style = ["--sound-cues", "upper"]  # the house style reaches the workers
    one = run_cli("in", "more", "-o", "out", "-q", "-v", "--jobs", "1", *style, cwd=tmp_path / "a")
    dask = run_cli("in", "more", "-o", "out", "-q", "-v", "--cluster", cluster.scheduler_address, *style,
                   cwd=tmp_path / "b")
    assert one.returncode == dask.returncode == 1  # one bad file
    assert tree(tmp_path / "a" / "out") == tree(tmp_path / "b" / "out")
    assert len(tree(tmp_path / "b" / "out")) == len(GOOD) + 2
    assert "[DOOR SLAMS]" in (tmp_path / "b" / "out" / "styled.srt").read_text(encoding="utf-8")
    assert same_but_time(one.stdout) == same_but_time(dask.stdout)
    assert one.stderr == dask.stderr
    assert sorted(line for line in dask.stderr.splitlines() if line.startswith("FAILED")) == EXPECTED_FAILED


@pytest.mark.usefixtures("engine")
def test_python_entry_point_with_a_client_loads_the_model_once_per_worker(cluster, tmp_path):
    from subcase.batch import ConvertOptions, convert_batch
    from subcase.batch.cluster import PLUGIN_NAME

    make_folder(tmp_path, copies=2)
    plan1, plan2 = plan_for(tmp_path, tmp_path / "out1"), plan_for(tmp_path, tmp_path / "out2")
    inputs = plan1.sources
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        first = convert_batch(plan1, ConvertOptions(cluster=client, punctuate="never"))
        engines = client.run(lambda dask_worker: id(dask_worker.plugins[PLUGIN_NAME].engine()))
        second = convert_batch(plan2, ConvertOptions(cluster=client, punctuate="never"))
        again = client.run(lambda dask_worker: id(dask_worker.plugins[PLUGIN_NAME].engine()))
    assert [r.src for r in first.results] == inputs == [r.src for r in second.results]
    assert sorted(r.src.name for r in first.failed) == ["0-markup.srt", "bad.srt"]  # a name collision, a bad file
    assert len(engines) == 2 and engines == again  # each worker kept its one engine across both batches
    assert tree(tmp_path / "out1") == tree(tmp_path / "out2")


@pytest.mark.usefixtures("engine")
def test_cluster_cancel(cluster, tmp_path):
    from subcase.batch import ConvertOptions, convert_batch

    make_folder(tmp_path, copies=8)
    plan = plan_for(tmp_path, tmp_path / "out")
    inputs = plan.sources
    done: list[Path] = []
    result = convert_batch(plan, ConvertOptions(cluster=cluster.scheduler_address, punctuate="never"),
                           on_file_done=lambda r: done.append(r.src), cancel=lambda: len(done) >= 2)
    assert result.cancelled
    assert 2 <= len(result.results) < len(inputs)
    assert [r.src for r in result.results] == done


def test_unreachable_scheduler_is_one_line(tmp_path):
    p = run_cli(str(ROOT / "resources" / "examples" / "lowercase-example.srt"), "-o", "out",
                "--cluster", "tcp://127.0.0.1:9", cwd=tmp_path)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines()[-1].startswith("subcase: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert "Traceback" not in p.stderr


@pytest.mark.usefixtures("engine")
def test_a_worker_killed_with_its_file_gives_a_failed_line(tmp_path):
    import os
    import signal

    import dask

    from subcase.batch import ConvertOptions, convert_batch

    make_folder(tmp_path, copies=6)
    plan = plan_for(tmp_path, tmp_path / "out")
    inputs = plan.sources
    # no retries: the first worker to die with a file gives up on that file
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                     dashboard_address="127.0.0.1:0", silence_logs=50) as c, \
            distributed.Client(c.scheduler_address, set_as_default=False) as client:
        pids = list(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one(r) -> None:
            # after the first file a worker converted, while both are busy with the others (a file
            # that fails its output planning is reported before any task runs: too early)
            if not killed and r.ok:
                killed.append(pids[0])
                os.kill(pids[0], signal.SIGKILL)

        result = convert_batch(plan, ConvertOptions(cluster=client, punctuate="never"), on_file_done=kill_one)
    assert killed and not result.cancelled
    assert [r.src for r in result.results] == inputs
    died = [r for r in result.failed if "every worker that tried it died" in (r.error or "")]
    assert died, [r.error for r in result.failed]
    assert len(result.succeeded) >= len(inputs) // 2  # the other worker (and the restarted one) went on


@pytest.mark.usefixtures("engine")
def test_cluster_runs_the_one_output_plan(cluster, tmp_path):
    """Mirrored subfolders, a taken name skipped, a linked subfolder refused: as in one process."""
    from test_output_folders import PRECIOUS, files_below, make_series

    runs = {}
    for how in ("local", "dask"):
        root = tmp_path / how
        make_series(root)
        (root / "out" / "film1").mkdir(parents=True)
        (root / "out" / "film1" / "English.srt").write_bytes(PRECIOUS)
        (root / "elsewhere").mkdir()
        (root / "out" / "film3").symlink_to(Path("..", "elsewhere"), target_is_directory=True)
        backend = ["--jobs", "1"] if how == "local" else ["--cluster", cluster.scheduler_address]
        runs[how] = run_cli("in", "-o", "out", "-q", "--skip-existing", *backend, cwd=root)
    local, dask = runs["local"], runs["dask"]
    assert local.returncode == dask.returncode == 1  # film3 refused
    assert local.stderr == dask.stderr and same_but_time(local.stdout) == same_but_time(dask.stdout)
    assert f"FAILED {Path('in', 'film3', 'English.srt')}: {Path('out', 'film3')} is a symbolic link" in dask.stderr
    assert files_below(tmp_path / "local" / "out") == files_below(tmp_path / "dask" / "out")
    assert (tmp_path / "dask" / "out" / "film1" / "English.srt").read_bytes() == PRECIOUS
    assert b"NASA" in (tmp_path / "dask" / "out" / "film2" / "English.srt").read_bytes()
    assert list((tmp_path / "dask" / "elsewhere").iterdir()) == []
    # without --skip-existing the Dask path refuses before sending anything, as one process does
    again = run_cli("in", "-o", "out", "-q", "--cluster", cluster.scheduler_address, cwd=tmp_path / "dask")
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.splitlines()[-1].startswith("subcase: 2 output(s) exist already in out; nothing was converted")
