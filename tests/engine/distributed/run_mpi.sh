#!/bin/sh
# Runs a test program under Open MPI's mpirun with 2 ranks on localhost (oversubscribed, so a
# 1-core machine works too); exits 77 (CTest's skip code here) with a message when mpirun is absent.
if ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP: mpirun not found (install openmpi-bin): the 2-rank run of $1 is skipped"
    exit 77
fi
# mpirun refuses root without these (containers and CI often run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun -np 2 --oversubscribe --host localhost:2 --mca btl self,vader,tcp "$@"
