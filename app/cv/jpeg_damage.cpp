// SPDX-License-Identifier: MIT
// libjpeg with an error manager that records warnings instead of printing them. OpenCV decodes through the
// same library but keeps its warnings on stderr, so the decode cannot tell a whole image from a patched one.
#include "jpeg_damage.hpp"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
// jpeglib.h needs FILE and size_t declared first.
#include <jpeglib.h>

namespace convolab::opencv {
namespace {

/// libjpeg's C callbacks reach this through cinfo->err (the first member). Only trivially destructible
/// members: error_exit leaves by longjmp.
struct Probe {
  jpeg_error_mgr manager;
  std::jmp_buf failed;
  bool decoding = false;  ///< past the header: a warning now is about pixel data
  bool damaged = false;
  JDIMENSION damagedAt = 0;  ///< output rows already complete when the first damage arrived
  char warning[JMSG_LENGTH_MAX] = {};
};

void onError(j_common_ptr cinfo) {
  std::longjmp(reinterpret_cast<Probe*>(cinfo->err)->failed, 1);
}

/// Level -1 is a warning (corrupt data, premature end); higher levels are trace messages.
void onMessage(j_common_ptr cinfo, int level) {
  auto* probe = reinterpret_cast<Probe*>(cinfo->err);
  if (level != -1 || !probe->decoding || probe->damaged) return;
  // Every warning is damage, also one after the last row: data left over before the end marker ("N
  // extraneous bytes before marker 0xd9") means the entropy decoder lost its way somewhere, and every row
  // after that point is garbage (a JPEG corrupted in the middle says nothing else).
  const auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
  probe->damaged = true;
  probe->damagedAt = std::min(d->output_scanline, d->output_height);
  cinfo->err->format_message(cinfo, probe->warning);
}

}  // namespace

std::optional<JpegDamage> findJpegDamage(std::string_view bytes) {
  if (bytes.size() < 4 || static_cast<unsigned char>(bytes[0]) != 0xFF ||
      static_cast<unsigned char>(bytes[1]) != 0xD8)
    return std::nullopt;
  jpeg_decompress_struct cinfo{};
  Probe probe;
  cinfo.err = jpeg_std_error(&probe.manager);
  probe.manager.error_exit = onError;
  probe.manager.emit_message = onMessage;
  jpeg_create_decompress(&cinfo);
  if (setjmp(probe.failed)) {
    // A fatal error: the decode itself fails as well (OpenCV reports it as unreadable).
    jpeg_destroy_decompress(&cinfo);
    return std::nullopt;
  }
  jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()),
               static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&cinfo, TRUE);
  const std::int64_t rows = cinfo.image_height;
  // Every coefficient is still Huffman-decoded (where damage shows); at 1/8 scale only the DC term is
  // transformed, and grey output skips the colour conversion.
  cinfo.scale_num = 1;
  cinfo.scale_denom = 8;
  cinfo.dct_method = JDCT_IFAST;
  cinfo.do_fancy_upsampling = FALSE;
  if (cinfo.jpeg_color_space == JCS_YCbCr || cinfo.jpeg_color_space == JCS_GRAYSCALE)
    cinfo.out_color_space = JCS_GRAYSCALE;
  probe.decoding = true;
  jpeg_start_decompress(&cinfo);
  JSAMPARRAY row = (*cinfo.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
                                              cinfo.output_width * cinfo.output_components, 1);
  while (cinfo.output_scanline < cinfo.output_height && !probe.damaged) jpeg_read_scanlines(&cinfo, row, 1);
  const JDIMENSION outputRows = cinfo.output_height;
  if (!probe.damaged) jpeg_finish_decompress(&cinfo);  // reads to the end marker: what is left over warns
  jpeg_destroy_decompress(&cinfo);
  if (!probe.damaged) return std::nullopt;
  // Found only at the end: where the decoder lost its way is not known.
  if (probe.damagedAt >= outputRows) return JpegDamage{rows, -1, probe.warning};
  const std::int64_t decoded = outputRows == 0 ? 0 : probe.damagedAt * rows / outputRows;
  return JpegDamage{rows, decoded, probe.warning};
}

}  // namespace convolab::opencv
