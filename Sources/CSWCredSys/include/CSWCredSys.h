#ifndef CSWCREDSYS_H
#define CSWCREDSYS_H

/// Marks the process non-dumpable (prctl PR_SET_DUMPABLE 0). Returns 0 or -1 with errno set;
/// -1/ENOSYS where the call does not exist.
int cswcred_sys_set_nondumpable(void);

/// Returns PR_GET_DUMPABLE (0 or 1), or -1 with errno set.
int cswcred_sys_get_dumpable(void);

/// renameat2(RENAME_NOREPLACE) relative to the current directory. Returns 0 or -1 with errno.
int cswcred_sys_rename_noreplace(const char *from, const char *to);

#endif
