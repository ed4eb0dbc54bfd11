// SPDX-License-Identifier: MIT
// Unit cube of a few thousand tetrahedra (built-in kernel), with the six
// faces as named physical surfaces and one physical volume.
h = 0.12;
Point(1) = {0, 0, 0, h}; Point(2) = {1, 0, 0, h};
Point(3) = {1, 1, 0, h}; Point(4) = {0, 1, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
ext[] = Extrude {0, 0, 1} { Surface{1}; };
// Gmsh saves only elements of physical groups: name every face.
e = 1e-6;
Physical Surface("xmin") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("xmax") = Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("ymin") = Surface In BoundingBox{-e, -e, -e, 1 + e, e, 1 + e};
Physical Surface("ymax") = Surface In BoundingBox{-e, 1 - e, -e, 1 + e, 1 + e, 1 + e};
Physical Surface("zmin") = {1};
Physical Surface("zmax") = {ext[0]};
Physical Volume("fluid") = {ext[1]};
