// Darkens towards the corners: the distance from the centre,
// as a fraction of the half-diagonal, scales the pixel.
float2 c = (float2)(width, height) * 0.5f;
float d = length((float2)(x, y) - c) / length(c);
float shade = 1.0f - strenght * smoothstep(radius, 1.0f, d);
return pixel(0, 0) * shade;
