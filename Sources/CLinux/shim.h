// Linux system calls Swift's Glibc module does not bring: epoll, for the runtime's readiness loop.
#include <sys/epoll.h>
