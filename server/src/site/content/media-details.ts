import exifr from 'exifr';
import sharp, { type Sharp } from 'sharp';
import { imageSize } from './image-size';

/**
 * `media_details` as WordPress's `wp_generate_attachment_metadata` makes them: for an image its size,
 * its resized copies (`wp_create_image_subsizes`, made here with sharp) and what its EXIF and IPTC say
 * (`wp_read_image_metadata`); for any other file its size in bytes.
 */

/** A registered image size: WordPress's defaults, in the order it makes them (medium and large first). */
export interface ImageSize {
	name: string;
	width: number;
	height: number;
	crop: boolean;
}

/** WordPress 6.x's default sizes (`thumbnail` cropped, the others fitted in their box; 0 is no limit). */
export const IMAGE_SIZES: ImageSize[] = [
	{ name: 'medium', width: 300, height: 300, crop: false },
	{ name: 'large', width: 1024, height: 1024, crop: false },
	{ name: 'thumbnail', width: 150, height: 150, crop: true },
	{ name: 'medium_large', width: 768, height: 0, crop: false },
	{ name: '1536x1536', width: 1536, height: 1536, crop: false },
	{ name: '2048x2048', width: 2048, height: 2048, crop: false },
];

/** The image types WordPress resizes (`file_is_displayable_image` with its GD editor) and sharp writes back. */
const RESIZABLE: Record<string, (image: Sharp) => Sharp> = {
	'image/jpeg': (image) => image.jpeg({ quality: 82 }),
	'image/png': (image) => image.png(),
	'image/gif': (image) => image.gif(),
	'image/webp': (image) => image.webp({ quality: 86 }),
};

/** Whether WordPress treats a file of this type as an image with sizes and `image_meta`. */
export const isSizedImage = (mimeType: string) => mimeType in RESIZABLE;

/** WordPress's `image_meta`: every value a string (it passes them through kses), `keywords` a list. */
export interface ImageMeta {
	aperture: string;
	credit: string;
	camera: string;
	caption: string;
	created_timestamp: string;
	copyright: string;
	focal_length: string;
	iso: string;
	shutter_speed: string;
	title: string;
	/** A string as read; the number 1 once WordPress has turned the image upright (it sets it so). */
	orientation: string | number;
	keywords: string[];
}

/** One resized copy as the metadata keeps it (`source_url` is added when answering). */
export interface SizeDetails {
	file: string;
	width: number;
	height: number;
	filesize: number;
	mime_type: string;
}

/** The stored metadata (WordPress's `_wp_attachment_metadata`); `file` is added when answering. */
export interface StoredDetails {
	width?: number;
	height?: number;
	filesize: number;
	sizes?: Record<string, SizeDetails>;
	image_meta?: ImageMeta;
	/** When the served file is a scaled or upright copy (`photo-scaled.jpg`): the uploaded file's name. */
	original_image?: string;
	/**
	 * An edited image (`/edit`): the item it was made from (its id as text: WordPress stores the route's
	 * parameter as it came) and that item's file below the uploads folder.
	 */
	parent_image?: { attachment_id: string; file: string };
}

/** A resized copy to store beside the original. */
export interface ImageCopy {
	name: string;
	fileName: string;
	mimeType: string;
	width: number;
	height: number;
	data: Buffer;
}

/** The box a size is cut from and the size it is scaled to (`image_resize_dimensions`). */
interface Resize {
	left: number;
	top: number;
	cropWidth: number;
	cropHeight: number;
	width: number;
	height: number;
}

/**
 * Fits `width` x `height` into a box (0: no limit on that side) keeping the aspect ratio, rounding as
 * WordPress's `wp_constrain_dimensions` does (the snug ratio when it fits, and one pixel short rounded up).
 */
export function constrain(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
	if (!maxWidth && !maxHeight) return [width, height];
	const widthRatio = maxWidth > 0 && width > maxWidth ? maxWidth / width : 1;
	const heightRatio = maxHeight > 0 && height > maxHeight ? maxHeight / height : 1;
	const smaller = Math.min(widthRatio, heightRatio);
	const larger = Math.max(widthRatio, heightRatio);
	const ratio = Math.round(width * larger) > maxWidth || Math.round(height * larger) > maxHeight ? smaller : larger;
	let w = Math.max(1, Math.round(width * ratio));
	let h = Math.max(1, Math.round(height * ratio));
	if (widthRatio < 1 && w === maxWidth - 1) w = maxWidth;
	if (heightRatio < 1 && h === maxHeight - 1) h = maxHeight;
	return [w, h];
}

/**
 * How an image of `width` x `height` is made into `size`, or undefined when WordPress makes no such copy:
 * the image is smaller than the size, or the copy would be (within a pixel) the original's size.
 * A cropped size is cut from the middle at the size's aspect ratio; the others are fitted in their box.
 */
export function resizeFor(width: number, height: number, size: ImageSize): Resize | undefined {
	if (width <= 0 || height <= 0 || (size.width <= 0 && size.height <= 0)) return undefined;
	const tooSmall = !size.height ? width < size.width : !size.width ? height < size.height : width < size.width && height < size.height;
	if (tooSmall) return undefined;
	let resize: Resize;
	if (size.crop) {
		let w = Math.min(size.width, width);
		let h = Math.min(size.height, height);
		if (!w) w = Math.round(h * (width / height));
		if (!h) h = Math.round(w / (width / height));
		const scale = Math.max(w / width, h / height);
		const cropWidth = Math.round(w / scale);
		const cropHeight = Math.round(h / scale);
		resize = { left: Math.floor((width - cropWidth) / 2), top: Math.floor((height - cropHeight) / 2), cropWidth, cropHeight, width: w, height: h };
	} else {
		const [w, h] = constrain(width, height, size.width, size.height);
		resize = { left: 0, top: 0, cropWidth: width, cropHeight: height, width: w, height: h };
	}
	if (Math.abs(resize.width - width) <= 1 && Math.abs(resize.height - height) <= 1) return undefined;
	return resize;
}

/** The sizes WordPress would make for an image of this size and has not (`wp_get_missing_image_subsizes`). */
export function missingSizes(details: StoredDetails): string[] {
	if (!details.width || !details.height) return [];
	return IMAGE_SIZES.filter((size) => resizeFor(details.width!, details.height!, size) && !details.sizes?.[size.name]).map((s) => s.name);
}

/** `photo.jpg` at 150x150 is `photo-150x150.jpg`, beside it (WordPress's `generate_filename`). */
const copyName = (fileName: string, width: number, height: number) => {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? `${fileName.slice(0, dot)}-${width}x${height}${fileName.slice(dot)}` : `${fileName}-${width}x${height}`;
};

const EMPTY_META: ImageMeta = {
	aperture: '0',
	credit: '',
	camera: '',
	caption: '',
	created_timestamp: '0',
	copyright: '',
	focal_length: '0',
	iso: '0',
	shutter_speed: '0',
	title: '',
	orientation: '0',
	keywords: [],
};

/** A number as PHP prints a float (14 significant digits: 1/3 is `0.33333333333333`). */
const phpNumber = (n: number) => String(Number(n.toPrecision(14)));
const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\0+$/, '').trim() : typeof value === 'number' ? String(value) : '');
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
/**
 * EXIF dates (`2024:01:02 03:04:05`) and IPTC ones (`20240102`, `030405+0100`) as Unix seconds, as
 * WordPress's `strtotime` reads them: a time without an offset is UTC (WordPress runs PHP in UTC).
 */
function timestamp(date: string, time = '00:00:00'): number | undefined {
	const d = date.replace(/\D/g, '');
	const offset = /([+-])(\d{2}):?(\d{2})$/.exec(time);
	const t = (offset ? time.slice(0, offset.index) : time).replace(/\D/g, '').padEnd(6, '0');
	if (d.length < 8) return undefined;
	const ms = Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8), +t.slice(0, 2), +t.slice(2, 4), +t.slice(4, 6));
	const shift = offset ? (offset[1] === '-' ? -1 : 1) * (+offset[2] * 60 + +offset[3]) * 60 : 0;
	return Number.isFinite(ms) ? Math.floor(ms / 1000) - shift : undefined;
}
/** Tags and other markup dropped from a read text, as WordPress's kses does for what it cannot allow. */
const plain = (value: string) => value.replace(/<[^>]*>/g, '');

/**
 * WordPress's `wp_read_image_metadata`: IPTC first (headline or object name as title, caption, credit
 * or byline, creation date and time, copyright, keywords), then EXIF for what is still empty, read from
 * JPEG and TIFF files only, as WordPress does. Unreadable metadata leaves the empty defaults.
 */
export async function readImageMeta(data: Buffer, mimeType: string): Promise<ImageMeta> {
	const meta: ImageMeta = { ...EMPTY_META, keywords: [] };
	if (mimeType !== 'image/jpeg' && mimeType !== 'image/tiff') return meta;
	let read: Record<string, Record<number, unknown>> | undefined;
	try {
		read = await exifr.parse(data, {
			tiff: true,
			exif: true,
			iptc: true,
			xmp: false,
			icc: false,
			jfif: false,
			ihdr: false,
			gps: false,
			interop: false,
			mergeOutput: false,
			translateKeys: false,
			translateValues: false,
			reviveValues: false,
		});
	} catch {
		return meta;
	}
	const iptc = read?.iptc ?? {};
	const ifd0 = read?.ifd0 ?? {};
	const exif = read?.exif ?? {};
	// IPTC (record 2): 105 headline, 5 object name, 120 caption, 110 credit, 80 byline, 55/60 date and time, 116 copyright, 25 keywords.
	meta.title = text(first(iptc[105])) || text(first(iptc[5]));
	const caption = text(first(iptc[120]));
	if (caption) {
		if (!meta.title && Buffer.byteLength(caption) < 80) meta.title = caption;
		meta.caption = caption;
	}
	meta.credit = text(first(iptc[110])) || text(first(iptc[80]));
	const created = iptc[55] && iptc[60] ? timestamp(text(first(iptc[55])), text(first(iptc[60]))) : undefined;
	if (created !== undefined) meta.created_timestamp = String(created);
	meta.copyright = text(first(iptc[116]));
	if (iptc[25] !== undefined) meta.keywords = (Array.isArray(iptc[25]) ? iptc[25] : [iptc[25]]).map(text);
	// EXIF: 270 description, 315 artist, 33432 copyright, 272 model, 274 orientation (IFD0); 33437 f-number,
	// 36868 digitized date, 37386 focal length, 34855 ISO, 33434 exposure time, 37510 user comment (Exif IFD).
	const description = text(ifd0[270]);
	if (description) {
		if (!meta.title && Buffer.byteLength(description) < 80) meta.title = description;
		if (!meta.caption) meta.caption = text(exif[37510]) || description;
	}
	if (!meta.credit) meta.credit = text(ifd0[315]);
	if (!meta.copyright) meta.copyright = text(ifd0[33432]);
	const fNumber = Number(exif[33437]);
	if (fNumber) meta.aperture = phpNumber(Math.round(fNumber * 100) / 100);
	if (text(ifd0[272])) meta.camera = text(ifd0[272]);
	if (meta.created_timestamp === '0' && typeof exif[36868] === 'string') {
		const digitized = exif[36868].split(' ');
		const ts = timestamp(digitized[0], digitized[1]);
		if (ts !== undefined) meta.created_timestamp = String(ts);
	}
	const focal = Number(exif[37386]);
	if (focal) meta.focal_length = phpNumber(focal);
	const iso = first(exif[34855]);
	if (iso) meta.iso = text(iso);
	const exposure = Number(exif[33434]);
	if (exposure) meta.shutter_speed = phpNumber(exposure);
	if (ifd0[274]) meta.orientation = text(ifd0[274]);
	for (const key of ['title', 'caption', 'credit', 'copyright', 'camera'] as const) meta[key] = plain(meta[key]);
	meta.keywords = meta.keywords.map(plain);
	return meta;
}

/** The image's size: decoded by sharp, else read from its header (an image sharp cannot decode still has one). */
async function dimensions(data: Buffer): Promise<{ width: number; height: number } | undefined> {
	try {
		const { width, height } = await sharp(data).metadata();
		if (width && height) return { width, height };
	} catch {
		// Not decodable: the header may still say its size.
	}
	return imageSize(data);
}

/** WordPress's "big image" threshold: a larger JPEG, GIF or WebP is served as a copy scaled to fit 2560x2560. */
const BIG_IMAGE = 2560;

/** `photo.jpg` with `scaled` is `photo-scaled.jpg`. */
const suffixed = (fileName: string, suffix: string) => {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? `${fileName.slice(0, dot)}-${suffix}${fileName.slice(dot)}` : `${fileName}-${suffix}`;
};

/**
 * The most pixels an image may have to be resized: about what WordPress's GD editor can hold in its
 * 256 MB image memory limit. A larger one (a decompression bomb is a small file) keeps its header size
 * and gets no copies, as on WordPress when GD runs out of memory.
 */
const MAX_PIXELS = 50_000_000;

/** The image as it is shown: turned upright by its EXIF orientation when WordPress reads one (JPEG, TIFF). */
const upright = (data: Buffer, orientation: number) => {
	const image = sharp(data, { pages: 1, limitInputPixels: MAX_PIXELS });
	return orientation > 1 ? image.rotate() : image;
};

/**
 * The resized copies WordPress makes of an image (`width` x `height` upright), from the uploaded file
 * turned upright; none when it cannot be decoded (they are then missing sizes).
 */
async function makeCopies(
	data: Buffer,
	fileName: string,
	mimeType: string,
	width: number,
	height: number,
	orientation: number,
	sizes = IMAGE_SIZES,
): Promise<ImageCopy[]> {
	const copies: ImageCopy[] = [];
	for (const size of sizes) {
		const resize = resizeFor(width, height, size);
		if (!resize) continue;
		try {
			const image = upright(data, orientation)
				.extract({ left: resize.left, top: resize.top, width: resize.cropWidth, height: resize.cropHeight })
				.resize(resize.width, resize.height, { fit: 'fill' });
			const out = await RESIZABLE[mimeType](image).toBuffer();
			copies.push({ name: size.name, fileName: copyName(fileName, resize.width, resize.height), mimeType, width: resize.width, height: resize.height, data: out });
		} catch {
			return [];
		}
	}
	return copies;
}

/**
 * The file served as the image (`source_url`, `sizes.full`), as `wp_create_image_subsizes` decides:
 * other than PNG, an image over the big-image threshold is scaled to fit it (`-scaled`), else one with
 * an EXIF orientation is turned upright (`-rotated`); the uploaded file is kept as `original_image`.
 */
async function servedImage(data: Buffer, fileName: string, mimeType: string, width: number, height: number, orientation: number) {
	if (mimeType === 'image/png') return undefined;
	try {
		if (width > BIG_IMAGE || height > BIG_IMAGE) {
			const [w, h] = constrain(width, height, BIG_IMAGE, BIG_IMAGE);
			const out = await RESIZABLE[mimeType](upright(data, orientation).resize(w, h, { fit: 'fill' })).toBuffer();
			return { fileName: suffixed(fileName, 'scaled'), data: out, width: w, height: h };
		}
		if (orientation > 1) {
			const out = await RESIZABLE[mimeType](upright(data, orientation)).toBuffer();
			return { fileName: suffixed(fileName, 'rotated'), data: out, width, height };
		}
	} catch {
		// Not decodable: the upload is served as it is.
	}
	return undefined;
}

/**
 * WordPress's `wp_update_image_subsizes` (the `post-process` route): the sizes an image is missing,
 * made from its upload (`original` is that file and its name). Nothing when it has them all or cannot
 * be decoded.
 */
export async function missingCopies(details: StoredDetails, original: { data: Buffer; fileName: string }, mimeType: string): Promise<ImageCopy[]> {
	const missing = new Set(missingSizes(details));
	if (!missing.size || !isSizedImage(mimeType)) return [];
	const size = await dimensions(original.data);
	if (!size) return [];
	const orientation = Number((await readImageMeta(original.data, mimeType)).orientation) || 0;
	const [width, height] = orientation >= 5 && orientation <= 8 ? [size.height, size.width] : [size.width, size.height];
	const wanted = IMAGE_SIZES.filter((s) => missing.has(s.name));
	return makeCopies(original.data, original.fileName, mimeType, width, height, orientation, wanted);
}

/** The metadata of a copy as `sizes` keeps it. */
export const sizeDetails = (copy: ImageCopy): SizeDetails => ({ file: copy.fileName, width: copy.width, height: copy.height, filesize: copy.data.length, mime_type: copy.mimeType });

/** What to store for an upload: the served file, its metadata, and the copies kept beside it. */
export interface StoredImage {
	details: StoredDetails;
	/** The file served as the item (the upload itself, or its scaled or upright copy). */
	main: { fileName: string; data: Buffer };
	/** The resized copies, and the uploaded file as `original_image` when another file is served. */
	copies: ImageCopy[];
}

/**
 * The metadata of an uploaded file and the files to store with it: for an image WordPress resizes,
 * `width`, `height`, `filesize`, `sizes` (each copy's name, size and type), `image_meta` and, when a
 * scaled or upright copy is served, `original_image`; for anything else `filesize` (what WordPress
 * keeps when it reads nothing more from the file).
 */
export async function fileDetails(data: Buffer, fileName: string, mimeType: string): Promise<StoredImage> {
	const main = { fileName, data };
	const size = isSizedImage(mimeType) ? await dimensions(data) : undefined;
	if (!size) return { details: { filesize: data.length }, main, copies: [] };
	const imageMeta = await readImageMeta(data, mimeType);
	const orientation = Number(imageMeta.orientation) || 0;
	// Orientations 5 to 8 turn the image a quarter: its upright width is its stored height.
	const [width, height] = orientation >= 5 && orientation <= 8 ? [size.height, size.width] : [size.width, size.height];
	const copies = await makeCopies(data, fileName, mimeType, width, height, orientation);
	const sizes: Record<string, SizeDetails> = {};
	for (const copy of copies) sizes[copy.name] = sizeDetails(copy);
	const served = await servedImage(data, fileName, mimeType, width, height, orientation);
	if (!served) return { details: { ...size, filesize: data.length, sizes, image_meta: imageMeta }, main, copies };
	// The served copy is upright: its orientation is now the normal one (a number, as WordPress writes it).
	if (orientation > 1) imageMeta.orientation = 1;
	return {
		details: { width: served.width, height: served.height, filesize: served.data.length, sizes, image_meta: imageMeta, original_image: fileName },
		main: { fileName: served.fileName, data: served.data },
		copies: [...copies, { name: 'original_image', fileName, mimeType, width: size.width, height: size.height, data }],
	};
}

/** One edit of `/media/{id}/edit`: a clockwise rotation in degrees, or a crop in percent of the current image. */
export type ImageEdit = { type: 'rotate'; angle: number } | { type: 'crop'; left: number; top: number; width: number; height: number };

/** Why an edit failed, as WordPress names it (`rest_unknown_image_file_type`, `rest_image_rotation_failed`, `rest_image_crop_failed`). */
export class ImageEditError extends Error {
	constructor(readonly code: 'rest_unknown_image_file_type' | 'rest_image_rotation_failed' | 'rest_image_crop_failed', message: string) {
		super(message);
	}
}

/**
 * WordPress's `edit_media_item`: the edits applied in order to the image (turned upright first), saved in
 * its own type. A crop applies only when it changes both sides, as WordPress's does.
 */
export async function applyEdits(data: Buffer, mimeType: string, edits: ImageEdit[]): Promise<Buffer> {
	// Lossless between the steps: each is a pipeline of its own, so that they apply in the order given.
	const step = (image: Sharp) => image.png({ compressionLevel: 0 }).toBuffer();
	let current: Buffer;
	try {
		current = await step(sharp(data, { pages: 1, limitInputPixels: MAX_PIXELS }).rotate());
	} catch {
		throw new ImageEditError('rest_unknown_image_file_type', 'Unable to edit this image.');
	}
	for (const edit of edits) {
		if (edit.type === 'rotate') {
			if (edit.angle % 360 === 0) continue;
			try {
				current = await step(sharp(current).rotate(edit.angle));
			} catch {
				throw new ImageEditError('rest_image_rotation_failed', 'Unable to rotate this image.');
			}
			continue;
		}
		const { width = 0, height = 0 } = await sharp(current).metadata();
		const crop = {
			left: Math.round((width * edit.left) / 100),
			top: Math.round((height * edit.top) / 100),
			width: Math.round((width * edit.width) / 100),
			height: Math.round((height * edit.height) / 100),
		};
		if (crop.width === width || crop.height === height) continue;
		try {
			current = await step(sharp(current).extract(crop));
		} catch {
			throw new ImageEditError('rest_image_crop_failed', 'Unable to crop this image.');
		}
	}
	return RESIZABLE[mimeType](sharp(current)).toBuffer();
}

/** `empty()` as PHP sees a metadata value: `""`, `"0"`, `0`, `[]`. */
const emptyValue = (value: unknown) => value === '' || value === '0' || value === 0 || (Array.isArray(value) && value.length === 0) || value == null;

/**
 * The metadata of an edited image: its own, with the EXIF and IPTC values it lost taken from the image it
 * was made from, the orientation reset (the pixels are upright), and `parent_image`.
 */
export function editedDetails(own: StoredDetails, from: StoredDetails, parent: { attachment_id: string; file: string }): StoredDetails {
	const meta = own.image_meta ? { ...own.image_meta } : undefined;
	if (meta && from.image_meta) {
		for (const [key, value] of Object.entries(from.image_meta) as [keyof ImageMeta, never][]) {
			if (emptyValue(meta[key]) && !emptyValue(value)) meta[key] = value;
		}
	}
	if (meta && !emptyValue(meta.orientation)) meta.orientation = 1;
	return { ...own, ...(meta ? { image_meta: meta } : {}), parent_image: parent };
}
