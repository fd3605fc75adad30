// discard.frag - the fragment stage a GLES program must have; with GL_RASTERIZER_DISCARD
// enabled it never runs.
out vec4 colour;
void main() { colour = vec4(0.0); }
