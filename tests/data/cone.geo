// SPDX-License-Identifier: MIT
// A cone of 10 degrees half-angle and length 1 (tip at the origin, axis x)
// in a box x in [-0.3, 1], y and z in [-0.6, 0.6], for the implicit
// solver's robustness matrix (tests/cli/implicit_matrix.sh): Mach 2 along
// x, the cone's shock leaves by the outlet. Markers: cone (its lateral
// surface; the base lies in the outlet plane, outside the domain), inlet,
// outlet, side. h (gmsh -setnumber h H): half of it on the cone, twice it
// elsewhere; 0.1 gives about 12k tetrahedra.
SetFactory("OpenCASCADE");
DefineConstant[ h = 0.1 ];
Cone(1) = {0, 0, 0, 1, 0, 0, 0, Tan(10 * Pi / 180), 2 * Pi};
Box(2) = {-0.3, -0.6, -0.6, 1.3, 1.2, 1.2};
BooleanDifference(3) = { Volume{2}; Delete; }{ Volume{1}; Delete; };
MeshSize{ PointsOf{ Volume{3}; } } = 2 * h;
MeshSize{ PointsOf{ Surface{ Surface In BoundingBox{-0.01, -0.2, -0.2, 1.01, 0.2, 0.2} }; } } = h / 2;
e = 0.01;
Physical Surface("cone") = Surface In BoundingBox{-e, -0.2, -0.2, 1 + e, 0.2, 0.2};
Physical Surface("inlet") = Surface In BoundingBox{-0.3 - e, -0.6 - e, -0.6 - e, -0.3 + e, 0.6 + e, 0.6 + e};
Physical Surface("outlet") = Surface In BoundingBox{1 - e, -0.6 - e, -0.6 - e, 1 + e, 0.6 + e, 0.6 + e};
Physical Surface("side") = Surface In BoundingBox{-0.3 - e, -0.6 - e, -0.6 - e, 1 + e, -0.6 + e, 0.6 + e};
Physical Surface("side") += Surface In BoundingBox{-0.3 - e, 0.6 - e, -0.6 - e, 1 + e, 0.6 + e, 0.6 + e};
Physical Surface("side") += Surface In BoundingBox{-0.3 - e, -0.6 - e, -0.6 - e, 1 + e, 0.6 + e, -0.6 + e};
Physical Surface("side") += Surface In BoundingBox{-0.3 - e, -0.6 - e, 0.6 - e, 1 + e, 0.6 + e, 0.6 + e};
Physical Volume("fluid") = {3};
