/* SPDX-License-Identifier: MIT */
/* placeholder */
#ifndef FVSTAR_CASE_H
#define FVSTAR_CASE_H
#endif
