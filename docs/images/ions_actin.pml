# Renders docs/images/ions_actin.png (Debian's pymol 2.5.0, headless) from the outputs of
# configs/examples/ions_actin.yaml, in the folder where that job ran:
#   ppl run configs/examples/ions_actin.yaml && python3 -m pymol -cq docs/images/ions_actin.pml
load actin_ions.pdb, complex
hide everything
dss complex and polymer
show cartoon, polymer
color grey70, polymer
show spheres, resn SOD+CLA
set sphere_scale, 0.9
color yellow, resn SOD
color green, resn CLA
show surface, polymer
set surface_color, grey90
set transparency, 0.5
bg_color white
orient complex
set ray_opaque_background, 1
png ions_actin.png, width=900, height=675, dpi=150, ray=1
quit
