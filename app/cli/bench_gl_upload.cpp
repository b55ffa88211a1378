// SPDX-License-Identifier: MIT
// How GlDisplay (bench_display_gl.hpp) puts a frame up: the texture, the pixel buffer (persistently mapped or
// mapped per frame, registered with OpenCL for direct-pinned), and show()'s upload and draw for each variant.
#include <cstring>

#include "bench_display_gl.hpp"
#include "bench_gl_context.hpp"

// GL_EXT_buffer_storage (GLES): declared here, gl2ext.h needs gl2platform.h's macros before it.
#ifndef GL_MAP_PERSISTENT_BIT_EXT
#define GL_MAP_PERSISTENT_BIT_EXT 0x0040
#define GL_MAP_COHERENT_BIT_EXT 0x0080
#endif
using BufferStorageExt = void(GL_APIENTRY*)(GLenum target, GLsizeiptr size, const void* data,
                                            GLbitfield flags);

namespace convolab::cli::bench {

void GlDisplay::ensureTexture(int width, int height) {
  glBindTexture(GL_TEXTURE_2D, m_texture);
  if (width == m_textureWidth && height == m_textureHeight) return;
  if (m_variant.format == GlVariant::Format::Rgb)
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, width, height, 0, GL_RGB, GL_UNSIGNED_BYTE, nullptr);
  else
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 3 * width, height, 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
  m_textureWidth = width;
  m_textureHeight = height;
}

std::uint8_t* GlDisplay::mapPixelBuffer(std::size_t bytes) {
  if (!m_pixelBuffer) glGenBuffers(1, &m_pixelBuffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
  if (bytes != m_pixelBufferBytes) {
    if (m_cl && m_cl->registered) clReleaseMemObject(m_cl->registered), m_cl->registered = nullptr;
    if (m_mapped) glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
    m_mapped = nullptr;
    if (m_persistent) {
      // Immutable storage cannot be resized: a new buffer.
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
      glDeleteBuffers(1, &m_pixelBuffer);
      glGenBuffers(1, &m_pixelBuffer);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
      static const auto bufferStorage =
          reinterpret_cast<BufferStorageExt>(eglGetProcAddress("glBufferStorageEXT"));
      bufferStorage(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr,
                    GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT);
    } else {
      glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    }
    m_pixelBufferBytes = bytes;
  }
  if (!m_mapped) {
    // Orphaned first, as the app's preview does (QOpenGLBuffer::allocate), then mapped with invalidation.
    if (!m_persistent)
      glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    const GLbitfield access = m_persistent
                                  ? GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT
                                  : GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT;
    m_mapped = static_cast<std::uint8_t*>(
        glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes), access));
  }
  if (m_mapped && m_variant.transfer == GlVariant::Transfer::DirectPinned && m_cl && !m_cl->registered) {
    // The engine's context learns the mapping as host memory of a buffer (CL_MEM_USE_HOST_PTR): a driver that
    // pins such memory then downloads into it by DMA. Only a persistent mapping keeps its address.
    cl_int e = CL_SUCCESS;
    if (m_persistent)
      m_cl->registered =
          clCreateBuffer(m_cl->engine, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, m_mapped, &e);
    if (!m_persistent || e != CL_SUCCESS) {
      m_cl->registered = nullptr;
      m_fallback = m_persistent
                       ? "clCreateBuffer(CL_MEM_USE_HOST_PTR) on the mapping → " + clCode(e) + "; ran direct"
                       : "no persistent mapping (GL_EXT_buffer_storage) to register; ran direct";
      m_variant.transfer = GlVariant::Transfer::Direct;
    }
  }
  return m_mapped;
}

MutableImageView GlDisplay::target(int width, int height) {
  if (!m_variant.direct()) return {};
  makeCurrent();
  const std::size_t stride = static_cast<std::size_t>(width) * kBytesPerPixel;
  std::uint8_t* p = mapPixelBuffer(stride * static_cast<std::size_t>(height));
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  return {p, width, height, stride};
}

std::uint32_t GlDisplay::show(const ImageView& image) {
  makeCurrent();
  ensureTexture(image.width, image.height);
  const void* source = image.data;
  const std::size_t rowBytes = static_cast<std::size_t>(image.width) * kBytesPerPixel;
  std::size_t stride = image.stride;
  if (m_variant.transfer != GlVariant::Transfer::Client) {
    if (!m_variant.direct() || image.data != m_mapped) {
      // pbo (or a direct variant handed other memory): copy the rows into the pixel buffer.
      std::uint8_t* p = mapPixelBuffer(rowBytes * static_cast<std::size_t>(image.height));
      for (int y = 0; y < image.height; ++y)
        std::memcpy(p + rowBytes * static_cast<std::size_t>(y), image.row(y), rowBytes);
      stride = rowBytes;
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, m_pixelBuffer);
    if (!m_persistent) {
      glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
      m_mapped = nullptr;
    }
    source = nullptr;  // offset 0 in the pixel buffer
  }
  // Rows `stride` bytes apart, any width. R8: alignment 1 and the stride as the row length (one byte a
  // texel). RGB: the alignment that pads a row to the stride, else the row length in pixels; a stride that is
  // neither (not a multiple of 3, more than 7 bytes of padding) goes up row by row.
  const bool rgb = m_variant.format == GlVariant::Format::Rgb;
  GLint alignment = 1, rowLength = static_cast<GLint>(stride);
  bool rows = false;
  if (rgb) {
    rowLength = static_cast<GLint>(stride / kBytesPerPixel);
    for (const GLint a : {1, 2, 4, 8})
      if ((rowBytes + a - 1) / a * a == stride) {
        alignment = a;
        rowLength = 0;
        break;
      }
    rows = rowLength != 0 && stride % kBytesPerPixel != 0;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, rows ? 0 : rowLength);
  if (rows) {
    for (int y = 0; y < image.height; ++y)
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, y, image.width, 1, GL_RGB, GL_UNSIGNED_BYTE, image.row(y));
  } else if (rgb) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGB, GL_UNSIGNED_BYTE, source);
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 3 * image.width, image.height, GL_RED, GL_UNSIGNED_BYTE, source);
  }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

  const GLint filter = rgb && m_smooth ? GL_LINEAR : GL_NEAREST;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
  glViewport(0, 0, kTargetWidth, kTargetHeight);
  const GLuint program = rgb ? m_programRgb : m_programR8;
  glUseProgram(program);
  if (!rgb) {
    glUniform2i(glGetUniformLocation(program, "size"), image.width, image.height);
    glUniform1i(glGetUniformLocation(program, "bilinear"), m_smooth ? 1 : 0);
  }
  glBindBuffer(GL_ARRAY_BUFFER, m_quad);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::uint32_t pixel = 0;
  if (m_frames++ % 64 == 0)
    glReadPixels(kTargetWidth / 2, kTargetHeight / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &pixel);
  glFinish();
  return pixel;
}

}  // namespace convolab::cli::bench
