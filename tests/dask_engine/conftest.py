"""One in-process LocalCluster for the Dask tests (threads: fast to start, nothing to leak)."""
import dask
import dask.dataframe as dd
import pytest
from distributed import Client, LocalCluster


@pytest.fixture(scope="session")
def client():
    with dask.config.set({"distributed.admin.tick.limit": "10s",
                          "distributed.worker.daemon": False}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                               dashboard_address=":0", silence_logs=50)
        with Client(cluster, set_as_default=True) as session:
            yield session
        cluster.close()


@pytest.fixture(scope="session")
def to_dask(client):
    """A pandas frame as a dask frame of ``npartitions`` partitions (same index, same cells)."""
    def convert(frame, npartitions=3):
        # keep object columns as they are (dask would turn list cells into their text)
        with dask.config.set({"dataframe.convert-string": False}):
            return dd.from_pandas(frame, npartitions=npartitions, sort=False)
    return convert
