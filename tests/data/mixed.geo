// SPDX-License-Identifier: MIT
// Mixed cells on [0,2]x[0,1]x[0,1]: a layer of hexahedra (x < 1) and prisms
// (x > 1) extruded with Recombine, tetrahedra above it, and the pyramids
// Gmsh puts on the quadrangles between the two.
h = 0.25;
Point(1) = {0, 0, 0, h}; Point(2) = {1, 0, 0, h}; Point(3) = {2, 0, 0, h};
Point(4) = {0, 1, 0, h}; Point(5) = {1, 1, 0, h}; Point(6) = {2, 1, 0, h};
Line(1) = {1, 2}; Line(2) = {2, 5}; Line(3) = {5, 4}; Line(4) = {4, 1};
Line(5) = {2, 3}; Line(6) = {3, 6}; Line(7) = {6, 5};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -2}; Plane Surface(2) = {2};
Transfinite Curve{1, 2, 3, 4} = 5;
Transfinite Surface{1};
Recombine Surface{1};
// low[0], low[6]: tops of surfaces 1 and 2; low[1], low[7]: their volumes
low[] = Extrude {0, 0, 0.3} { Surface{1, 2}; Layers{2}; Recombine; };
high[] = Extrude {0, 0, 0.7} { Surface{low[0], low[6]}; };
// Gmsh saves only elements of physical groups: name every outer face.
e = 1e-6;
Physical Surface("bottom") = {1, 2};
Physical Surface("top") = {high[0], high[6]};
Physical Surface("xmin") = Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e};
Physical Surface("xmax") = Surface In BoundingBox{2 - e, -e, -e, 2 + e, 1 + e, 1 + e};
Physical Surface("ymin") = Surface In BoundingBox{-e, -e, -e, 2 + e, e, 1 + e};
Physical Surface("ymax") = Surface In BoundingBox{-e, 1 - e, -e, 2 + e, 1 + e, 1 + e};
Physical Volume("fluid") = {low[1], low[7], high[1], high[7]};
