// SPDX-License-Identifier: MIT
// Sharp-trailing-edge ONERA M6 of the NASA Turbulence Modeling Resource, from
// the STEP solid cases/onera_m6/onera-m6-sharp-te.stp (UGAWG
// solution-adapt-cases): the half domain, wing of root chord 1 inside a
// hemisphere of radius 100 (centre at the origin), symmetry plane y = 0.
// Units: root chords; x downstream, y spanwise, z up.
//
// Wing as measured from the STEP (Gmsh bounding boxes): root LE (0, 0, 0) and
// TE (1, 0, 0); the straight part ends at y = 1.47602 (LE x = 0.85215 = y tan 30,
// TE x = 1.41466, i.e. TE sweep 15.69 deg, chord 0.5625), followed by a rounded
// tip up to y = 1.50345; sharp TE (the section is modified aft of x/c = 0.9943);
// thickness +-0.04893. The wing has 10 faces (upper, lower, 2 TE strips, 6 tip).
//
// Markers (Physical groups, found by bounding boxes): "wing", "symmetry" (y = 0),
// "farfield" (the hemisphere), Physical Volume "fluid".
//
// Mesh size: the same field as onera_m6.geo with all lengths divided by the
// original root chord 0.8059 m (so that a given sf gives similar meshes),
//   h(d) = sf * (h0 + grow * d), the smallest over the wing surface, the LE, the TE
// and the tip chord, capped at sf * far_size. cases/onera_m6/make_mesh.sh sets sf
// per level (step-coarse, step-medium) and the STEP path (-setstring step_file).

SetFactory("OpenCASCADE");

DefineConstant[
  step_file = {"onera-m6-sharp-te.stp",
               Name "Geometry/STEP file"},
  sf        = {1.0,     Name "Mesh/1size factor (all sizes)"},
  wing_size = {0.02978, Name "Mesh/2wing surface size at the root"},
  le_size   = {0.004343, Name "Mesh/3leading-edge size at the root"},
  te_size   = {0.007445, Name "Mesh/4trailing-edge size at the root"},
  tip_size  = {0.006204, Name "Mesh/5tip size"},
  far_size  = {12,      Name "Mesh/6far-field size"},
  grow      = {0.18,    Name "Mesh/7size growth per unit distance"},
  algo3d    = {1,       Name "Mesh/8volume algorithm (1 Delaunay, 10 HXT)"}
];

Geometry.OCCTargetUnit = "";   // keep the file's units (root chord = 1)
Merge Str(step_file);

// Planform of the STEP wing (see above).
cr   = 1;
b    = 1.47602;
tle  = Tan(30 * Pi / 180);
xtip = 0.852145;
xtte = 1.41466;
tte  = (xtte - cr) / b;
ct   = xtte - xtip;

// Markers, found by bounding boxes.
e = 1e-3;
vol() = Volume{:};
sym() = Surface In BoundingBox{-1000, -e, -1000, 1000, e, 1000};
wng() = Surface In BoundingBox{-e, -e, -0.1, 1.6, 1.6, 0.1};
far() = Surface{:};
far() -= sym();
far() -= wng();
If (#vol[] != 1 || #sym[] != 1 || #wng[] < 3 || #far[] < 1)
  Error("onera_m6_step.geo: unexpected entities: %g volumes, %g symmetry, %g wing, %g far field surfaces",
        #vol[], #sym[], #wng[], #far[]);
  Abort;
EndIf
// Check the planform against the constants above.
bb() = BoundingBox Surface{wng[0]};
For i In {1:#wng[] - 1}
  bi() = BoundingBox Surface{wng[i]};
  For k In {0:2}
    bb[k] = (bi[k] < bb[k]) ? bi[k] : bb[k];
    bb[k + 3] = (bi[k + 3] > bb[k + 3]) ? bi[k + 3] : bb[k + 3];
  EndFor
EndFor
If (Fabs(bb[0]) > e || Fabs(bb[3] - xtte) > 0.01 || Fabs(bb[4] - b) > 0.05 || Fabs(bb[5] - 0.0489) > 0.002)
  Error("onera_m6_step.geo: the wing's bounding box (%g %g %g  %g %g %g) is not the expected one",
        bb[0], bb[1], bb[2], bb[3], bb[4], bb[5]);
  Abort;
EndIf
Physical Surface("wing") = wng();
Physical Surface("symmetry") = sym();
Physical Surface("farfield") = far();
Physical Volume("fluid") = vol();

// Mesh size field (as in onera_m6.geo). Y = min(max(y, 0), b); c(Y) = cr - Y (tle - tte).
Y   = "min(max(y, 0), %.7g)";
ys  = Sprintf(Y, b);
dy2 = StrCat("(y - ", ys, ")^2");
cY  = Sprintf(StrCat("(%.7g - ", ys, " * %.7g)"), cr, tle - tte);
xle = Sprintf(StrCat("(", ys, " * %.7g)"), tle);
xte = Sprintf(StrCat("(%.7g + ", ys, " * %.7g)"), cr, tte);
dle = StrCat("sqrt((x - ", xle, ")^2 + ", dy2, " + z^2)");
dte = StrCat("sqrt((x - ", xte, ")^2 + ", dy2, " + z^2)");
dxw = StrCat("max(0, ", xle, " - x, x - ", xte, ")");
dw  = StrCat("sqrt(", dxw, "^2 + ", dy2, " + z^2)");
dxt = Sprintf("max(0, %.7g - x, x - %.7g)", xtip, xtte);
dt  = StrCat("sqrt(", dxt, "^2 + ", Sprintf("(y - %.7g)^2", b), " + z^2)");
hw  = StrCat(Sprintf("%.7g * ", wing_size / cr), cY, Sprintf(" + %.7g * ", grow), dw);
hle = StrCat(Sprintf("%.7g * ", le_size / cr), cY, Sprintf(" + %.7g * ", grow), dle);
hte = StrCat(Sprintf("%.7g * ", te_size / cr), cY, Sprintf(" + %.7g * ", grow), dte);
ht  = StrCat(Sprintf("%.7g + %.7g * ", tip_size, grow), dt);
Field[1] = MathEval;
Field[1].F = StrCat(Sprintf("%.7g * min(%.7g, ", sf, far_size), hw, ", ", hle, ", ", hte, ", ", ht, ")");
Background Field = 1;

Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeMax = sf * far_size;
Mesh.Algorithm = 5;      // Delaunay surfaces: with Frontal-Delaunay (6) the volume
                         // mesh of step-medium kept a flat tet at the root TE
Mesh.Algorithm3D = algo3d;   // see onera_m6.geo
Mesh.Optimize = 1;
