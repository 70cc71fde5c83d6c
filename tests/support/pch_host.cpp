// Compiled only so that the tests' precompiled headers have a target to be built for
// (tstudio_add_test_pch_host in cmake/TStudioTests.cmake); the object file is not linked.
