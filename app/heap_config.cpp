// The programs' heap settings (tensorstudio and tstudio): jemalloc reads its documented global
// `malloc_conf` when the program starts (before main), so the settings hold for every allocation,
// Qt's and protobuf's included.
//
// "thp:always" puts the heap's extents on transparent huge pages (madvise MADV_HUGEPAGE), and
// "metadata_thp:always" jemalloc's own bookkeeping too. Opening a large graph touches hundreds of MB
// of fresh heap in a few seconds; with 4 KiB pages that is one page fault per 4 KiB, and where a page
// fault is expensive (on the 2-core development VM, 19-24 us each, measured with an mmap-and-touch
// loop) the faults cost more than the parsing and grouping themselves. Where the system's
// transparent_hugepage setting is "madvise" (Debian's and Ubuntu's default) nothing else asks for huge
// pages; where it is "never" the option does nothing. MALLOC_CONF in the environment still overrides.
//
// The command line gains too: a Session::run allocates a few small blocks per node (kernel contexts,
// broadcast plans, output shapes), which jemalloc's thread caches serve faster than the C library's
// allocator (tstudio bench overhead: the figures are in the commit that made tstudio link it).
//
// Compiled into tensorstudio and tstudio when they link jemalloc (app/CMakeLists.txt).

extern "C" {
// Read by jemalloc (libjemalloc.so defines a weak default that this definition takes the place of).
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always";
}
