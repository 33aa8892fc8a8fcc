// Linux system calls Swift's Glibc module does not bring: epoll and timerfd, for the runtime's event loop, and
// eventfd, for sockets that are not sockets (a test network's) to be waited on like one; mallinfo2, for the
// benchmarks' heap figures; posix_spawn's close-from action (glibc 2.34), which spawn.h declares only for
// _GNU_SOURCE, for child processes that inherit none of our descriptors, and pipe2, for pipes whose ends no other
// child inherits.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <malloc.h>
#include <spawn.h>
#include <unistd.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int pipe2(int descriptors[2], int flags);
