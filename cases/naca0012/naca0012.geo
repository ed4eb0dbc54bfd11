// SPDX-License-Identifier: MIT
// NACA 0012 (closed trailing edge: x^4 coefficient -0.1036) of chord 1 in a
// circular far field of radius R centred at mid-chord, 2D: Gmsh writes it
// as SU2 NDIME= 2 and fvstar extrudes it one layer in z. Markers: airfoil,
// farfield. Options (gmsh -setnumber NAME VALUE):
//   sf     size factor: every size scales with it (cells ~ sf^-2)
//   R      far-field radius in chords
//   quads  1: recombine into quadrilaterals (a few triangles remain)
DefineConstant[ sf = 1, R = 25, quads = 0 ];
n = 60 / sf;                  // points on each surface, clustered at both ends
np = 40;                      // spline control points per surface
h_far = 2.5 * sf * R / 25;    // cell size at the far field
h_near = 0.02 * sf;           // cell size near the airfoil
Function Thickness
  yt = 0.6 * (0.2969 * Sqrt(xc) - 0.1260 * xc - 0.3516 * xc^2 + 0.2843 * xc^3 - 0.1036 * xc^4);
Return
te = newp; Point(te) = {1, 0, 0};
le = newp; Point(le) = {0, 0, 0};
up[] = {te};
For i In {1:np - 1}
  xc = 0.5 * (1 + Cos(Pi * i / np)); Call Thickness;
  p = newp; Point(p) = {xc, yt, 0}; up[] += {p};
EndFor
up[] += {le};
lo[] = {le};
For i In {1:np - 1}
  xc = 0.5 * (1 - Cos(Pi * i / np)); Call Thickness;
  p = newp; Point(p) = {xc, -yt, 0}; lo[] += {p};
EndFor
lo[] += {te};
upper = newl; Spline(upper) = up[];
lower = newl; Spline(lower) = lo[];
Transfinite Curve{upper, lower} = n Using Bump 0.25;

c = newp; Point(c) = {0.5, 0, 0};
f1 = newp; Point(f1) = {0.5 + R, 0, 0, h_far};
f2 = newp; Point(f2) = {0.5, R, 0, h_far};
f3 = newp; Point(f3) = {0.5 - R, 0, 0, h_far};
f4 = newp; Point(f4) = {0.5, -R, 0, h_far};
a1 = newl; Circle(a1) = {f1, c, f2};
a2 = newl; Circle(a2) = {f2, c, f3};
a3 = newl; Circle(a3) = {f3, c, f4};
a4 = newl; Circle(a4) = {f4, c, f1};
outer = newll; Curve Loop(outer) = {a1, a2, a3, a4};
inner = newll; Curve Loop(inner) = {upper, lower};
s = news; Plane Surface(s) = {outer, inner};

// sizes grow from the airfoil to the far field
Field[1] = Distance; Field[1].CurvesList = {upper, lower}; Field[1].NumPointsPerCurve = 200;
Field[2] = Threshold; Field[2].InField = 1; Field[2].SizeMin = h_near; Field[2].SizeMax = h_far;
Field[2].DistMin = 0.05; Field[2].DistMax = 0.6 * R;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
If (quads)
  Recombine Surface{s};
  Mesh.RecombinationAlgorithm = 1;
EndIf

Physical Curve("airfoil") = {upper, lower};
Physical Curve("farfield") = {a1, a2, a3, a4};
Physical Surface("fluid") = {s};
