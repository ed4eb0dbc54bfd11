/* SPDX-License-Identifier: MIT */
/* placeholder */
#ifndef FVSTAR_OUTPUT_H
#define FVSTAR_OUTPUT_H
#endif
