import zxing from '@zxing/library';
import * as mupdf from 'mupdf';

// @zxing/library ships CommonJS: its named exports are reachable through the default only.
const { BinaryBitmap, DataMatrixReader, HybridBinarizer, RGBLuminanceSource } = zxing;

/**
 * Labels checked as a scanner and a reader would see them (ADR 035): a ZPL label rendered by an
 * independent renderer (zpl-renderer-js, the Zebrash engine in WebAssembly), a PDF page or a PNG
 * rasterised by MuPDF, and the DataMatrix decoded by ZXing.
 */

/** A grey image: one byte per pixel, 0 black … 255 white. */
export interface Grey {
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

function greyOf(pixmap: mupdf.Pixmap): Grey {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  // Bytes per pixel, alpha included (MuPDF counts it among the components in some builds).
  const n = pixmap.getStride() / width;
  const source = pixmap.getPixels();
  const pixels = new Uint8ClampedArray(width * height);
  const stride = pixmap.getStride();
  for (let i = 0; i < width * height; i++) {
    const at = Math.floor(i / width) * stride + (i % width) * n;
    // A transparent pixel is paper (the renderers leave the background transparent or white).
    const alpha = pixmap.getAlpha() ? source[at + n - 1]! / 255 : 1;
    const value = n >= 3 ? (source[at]! + source[at + 1]! + source[at + 2]!) / 3 : source[at]!;
    pixels[i] = Math.round(255 - alpha * (255 - value));
  }
  return { width, height, pixels };
}

/** A PNG as a grey image. */
export function pngToGrey(png: Buffer | Uint8Array): Grey {
  return greyOf(new mupdf.Image(png).toPixmap());
}

/** A PDF page rasterised at `scale` (1 = 72 dpi) as a grey image. */
export function pdfPageToGrey(pdf: Buffer, pageIndex: number, scale = 8): Grey {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pixmap = document
    .loadPage(pageIndex)
    .toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true);
  return greyOf(pixmap);
}

let renderer: Promise<{ zplToBase64MultipleAsync: (...args: never[]) => unknown }> | undefined;

/**
 * Renders every label of a ZPL text at 8 dots per mm on a canvas `widthMm` × `heightMm` (wider
 * than the label, so that a line running past the label's edge shows as ink beyond it).
 */
export async function renderZpl(zpl: string, widthMm = 60, heightMm = 25): Promise<Grey[]> {
  renderer ??= import('zpl-renderer-js').then(async (module) => (await module.ready).api);
  const api = (await renderer) as unknown as {
    zplToBase64MultipleAsync(zpl: string, w: number, h: number, dpmm: number): Promise<string[]>;
  };
  const pngs = await api.zplToBase64MultipleAsync(zpl, widthMm, heightMm, 8);
  return pngs.map((png) => pngToGrey(Buffer.from(png, 'base64')));
}

/** The ink's bounding box in a rectangle of the image (null: blank). */
export function inkBox(
  image: Grey,
  area = { x0: 0, y0: 0, x1: image.width, y1: image.height },
): { x0: number; y0: number; x1: number; y1: number } | null {
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (let y = area.y0; y < area.y1; y++) {
    for (let x = area.x0; x < area.x1; x++) {
      if (image.pixels[y * image.width + x]! >= 128) continue;
      box ??= { x0: x, y0: y, x1: x, y1: y };
      box.x0 = Math.min(box.x0, x);
      box.y0 = Math.min(box.y0, y);
      box.x1 = Math.max(box.x1, x);
      box.y1 = Math.max(box.y1, y);
    }
  }
  return box;
}

/**
 * Decodes the DataMatrix inside `area`: the symbol's ink is cut out with a white quiet zone of a
 * tenth of its side around it (the detector grows a white rectangle from the image's centre, so
 * the text beside the code must not be in the picture).
 */
export function decodeDataMatrix(
  image: Grey,
  area = { x0: 0, y0: 0, x1: image.width, y1: image.height },
): string {
  const box = inkBox(image, area);
  if (!box) throw new Error('no DataMatrix ink');
  const w = box.x1 - box.x0 + 1;
  const h = box.y1 - box.y0 + 1;
  const quiet = Math.max(8, Math.round(Math.max(w, h) / 10));
  const side = Math.max(w, h) + 2 * quiet;
  const square = new Uint8ClampedArray(side * side).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      square[(y + quiet) * side + x + quiet] =
        image.pixels[(box.y0 + y) * image.width + box.x0 + x]!;
    }
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(square, side, side)));
  return new DataMatrixReader().decode(bitmap).getText();
}
