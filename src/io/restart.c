/* SPDX-License-Identifier: MIT */
/* placeholder: being written */
#include "fvstar/mesh.h"
