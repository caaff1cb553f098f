#define _GNU_SOURCE
#include "CSWCredSys.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int cswcred_sys_set_nondumpable(void) {
#if defined(__linux__)
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cswcred_sys_get_dumpable(void) {
#if defined(__linux__)
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int cswcred_sys_rename_noreplace(const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */);
#else
    (void)from; (void)to;
    errno = ENOSYS;
    return -1;
#endif
}
