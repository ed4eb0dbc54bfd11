#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plot laminar flat-plate velocity profiles (CSV files written by
tests/cli/blasius_profile.py --csv) against Blasius' f'(eta).

Usage: plot_blasius_profiles.py OUT.png LABEL=FILE.csv [LABEL=FILE.csv ...]
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'cli'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import blasius_profile as bp  # noqa: E402
import plot_common as pc  # noqa: E402

pc.require_matplotlib('plot_blasius_profiles.py')
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    table, fpp0 = bp.blasius()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.plot([f for _, f in table if _ <= 8], [e for e, _ in table if e <= 8], 'k-', lw=1.5,
            label="Blasius f'(eta), f''(0) = %.5f" % fpp0)
    marks = 'os^vD'
    for k, arg in enumerate(sys.argv[2:]):
        label, path = arg.split('=', 1)
        rows = list(csv.DictReader(open(path)))
        for j, x in enumerate(sorted({r['x'] for r in rows}, key=float)):
            sel = [r for r in rows if r['x'] == x]
            ax.plot([float(r['u_over_Ue']) for r in sel], [float(r['eta']) for r in sel], marks[j % 5],
                    mfc='none' if k else None, ms=5, label='%s, x = %.2f' % (label, float(x)))
    ax.set_xlabel('u / U_e')
    ax.set_ylabel('eta = y sqrt(Re / x)')
    ax.set_ylim(0, 8)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title('Laminar flat plate, M 0.2, Re 10^4: velocity profiles')
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=120)


if __name__ == '__main__':
    main()
