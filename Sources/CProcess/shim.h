#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>

// glibc's GNU extensions that the worker's scan children need. Swift's Glibc module is built
// without _GNU_SOURCE, so they are declared here (glibc 2.34 and later has all three).
extern int pipe2(int fds[2], int flags);
extern int malloc_trim(size_t pad);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// A pipe whose two ends close on exec from the start: a child started by another thread in
// the meantime cannot inherit them.
static inline int a11y_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

// Hands freed heap memory back to the system, so the resident set shows what is still in use.
static inline int a11y_malloc_trim(void) {
    return malloc_trim(0);
}

// The child closes every descriptor from `from` on: none of the parent's leak into it.
static inline int a11y_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
