#ifndef SWIFT_HOME_CSQLITE_SHIM_H
#define SWIFT_HOME_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
