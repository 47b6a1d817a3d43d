// Linked into the programs that start MPI (lqcd, test_mpi) in a sanitizer build only (LQCD_SANITIZE).
//
// OpenMPI keeps start-up allocations to the end of the process (scripts/sanitize/lsan.supp). Its
// libraries have no frame pointers, so ASan's default fast unwinder records only the allocator's
// frame and an unknown caller, and a suppression by library name cannot match; the slow (DWARF)
// unwinder records the whole stack, through libopen-rte/libopen-pal/libmpi. These are ASan's
// built-in defaults for this program; ASAN_OPTIONS in the environment still overrides them.
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }
