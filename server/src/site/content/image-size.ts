/**
 * Width and height of an image read from its header bytes (PNG, GIF, JPEG, WebP), as WordPress's
 * `getimagesize` gives them for `media_details`; undefined for anything else or a truncated header.
 */
export function imageSize(data: Buffer): { width: number; height: number } | undefined {
	const size = png(data) ?? gif(data) ?? jpeg(data) ?? webp(data);
	return size && size.width > 0 && size.height > 0 ? size : undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The IHDR chunk comes first: width and height, big-endian, at bytes 16 and 20. */
function png(data: Buffer) {
	if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
	return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** The logical screen: width and height, little-endian, at bytes 6 and 8. */
function gif(data: Buffer) {
	if (data.length < 10 || !/^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) return undefined;
	return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
}

/** Walks the segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG and DAC), which holds height then width. */
function jpeg(data: Buffer) {
	if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
	let at = 2;
	while (at + 9 < data.length) {
		if (data[at] !== 0xff) return undefined;
		const marker = data[at + 1];
		// Fill bytes, and markers without a length (TEM, RSTn).
		if (marker === 0xff) {
			at++;
			continue;
		}
		if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			at += 2;
			continue;
		}
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
		}
		// End of image, or start of scan before any frame header: nothing to find.
		if (marker === 0xd9 || marker === 0xda) return undefined;
		at += 2 + data.readUInt16BE(at + 2);
	}
	return undefined;
}

/** RIFF/WEBP with its first chunk: VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size). */
function webp(data: Buffer) {
	if (data.length < 30 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return undefined;
	const chunk = data.toString('latin1', 12, 16);
	if (chunk === 'VP8 ') {
		// The key frame's start code, then 14-bit width and height.
		if (data[23] !== 0x9d || data[24] !== 0x01 || data[25] !== 0x2a) return undefined;
		return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
	}
	if (chunk === 'VP8L') {
		if (data[20] !== 0x2f) return undefined;
		const bits = data.readUInt32LE(21);
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8X') {
		return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
	}
	return undefined;
}
