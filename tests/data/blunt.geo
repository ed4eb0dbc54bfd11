// SPDX-License-Identifier: MIT
// A 2D blunt body for the implicit solver's safeguards: the front half of a
// cylinder of radius 1 in Mach 6 flow, the far field an arc of radius 4
// about (1, 0), the outlet the lines x = 0 above and below the body; Gmsh
// writes it as SU2 NDIME= 2 (fvstar extrudes it one layer in z). Markers:
// wall, inlet, outlet. h (gmsh -setnumber h H): the size at the shoulders
// (half of it at the stagnation point); 0.1 gives about 1400 triangles.
DefineConstant[ h = 0.1 ];
Point(1) = {0, 0, 0};
Point(2) = {0, 1, 0, h}; Point(3) = {-1, 0, 0, h / 2}; Point(4) = {0, -1, 0, h};
Point(5) = {1, 0, 0};
Point(6) = {0, 3.873, 0, 4 * h}; Point(7) = {-3, 0, 0, 2 * h}; Point(8) = {0, -3.873, 0, 4 * h};
Circle(1) = {2, 1, 3}; Circle(2) = {3, 1, 4};
Circle(3) = {6, 5, 7}; Circle(4) = {7, 5, 8};
Line(5) = {4, 8}; Line(6) = {6, 2};
Curve Loop(1) = {1, 2, 5, -4, -3, 6};
Plane Surface(1) = {1};
Physical Curve("wall") = {1, 2};
Physical Curve("inlet") = {3, 4};
Physical Curve("outlet") = {5, 6};
Physical Surface("fluid") = {1};
