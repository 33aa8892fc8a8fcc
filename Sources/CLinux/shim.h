// Linux system calls Swift's Glibc module does not bring: epoll and timerfd, for the runtime's event loop, and
// eventfd, for sockets that are not sockets (a test network's) to be waited on like one; mallinfo2, for the
// benchmarks' heap figures.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <malloc.h>
