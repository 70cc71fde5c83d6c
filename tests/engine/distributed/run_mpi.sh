#!/bin/sh
# Runs a test program under Open MPI's mpirun with 2 ranks on localhost (oversubscribed, so a
# 1-core machine works too), or N ranks with "--np N" first; exits 77 (CTest's skip code here) with a
# message when mpirun is absent.
ranks=2
if [ "$1" = "--np" ]; then
    ranks=$2
    shift 2
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP: mpirun not found (install openmpi-bin): the $ranks-rank run of $1 is skipped"
    exit 77
fi
# mpirun refuses root without these (containers and CI often run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec mpirun -np "$ranks" --oversubscribe --host "localhost:$ranks" --mca btl self,vader,tcp "$@"
