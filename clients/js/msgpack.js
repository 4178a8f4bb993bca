// A msgpack decoder (https://github.com/msgpack/msgpack/blob/master/spec.md): every type the
// artifacts use (nil, booleans, integers, floats, strings, binary, arrays, maps). Extension
// types are refused. Integers beyond 2^53 come back as BigInt so that no value is rounded.

/** Thrown when the bytes are not one complete msgpack value. */
export class MsgpackError extends Error {}

const utf8 = new TextDecoder("utf-8", {fatal: true});

/**
 * Decode one msgpack value that fills `bytes` exactly.
 * @param {Uint8Array} bytes
 * @returns {*} null, boolean, number, BigInt, string, Uint8Array, Array or plain object (a
 *   map; the artifacts' keys are strings).
 */
export function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;

  function need(n) {
    if (pos + n > bytes.length) {
      throw new MsgpackError(`truncated: a value needs ${n} more bytes at offset ${pos}`);
    }
    const at = pos;
    pos += n;
    return at;
  }

  function str(n) {
    const at = need(n);
    return utf8.decode(bytes.subarray(at, at + n));
  }

  function array(n) {
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = value();
    return out;
  }

  function map(n) {
    const out = {};
    for (let i = 0; i < n; i++) {
      const key = value();
      out[key] = value();
    }
    return out;
  }

  function value() {
    const type = bytes[need(1)];
    if (type <= 0x7f) return type;
    if (type >= 0xe0) return type - 0x100;
    if (type >= 0x80 && type <= 0x8f) return map(type & 0x0f);
    if (type >= 0x90 && type <= 0x9f) return array(type & 0x0f);
    if (type >= 0xa0 && type <= 0xbf) return str(type & 0x1f);
    switch (type) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: { const n = bytes[need(1)]; const at = need(n); return bytes.subarray(at, at + n); }
      case 0xc5: { const n = view.getUint16(need(2)); const at = need(n); return bytes.subarray(at, at + n); }
      case 0xc6: { const n = view.getUint32(need(4)); const at = need(n); return bytes.subarray(at, at + n); }
      case 0xca: return view.getFloat32(need(4));
      case 0xcb: return view.getFloat64(need(8));
      case 0xcc: return bytes[need(1)];
      case 0xcd: return view.getUint16(need(2));
      case 0xce: return view.getUint32(need(4));
      case 0xcf: return bigEndian64(need(8), false);
      case 0xd0: return view.getInt8(need(1));
      case 0xd1: return view.getInt16(need(2));
      case 0xd2: return view.getInt32(need(4));
      case 0xd3: return bigEndian64(need(8), true);
      case 0xd9: return str(bytes[need(1)]);
      case 0xda: return str(view.getUint16(need(2)));
      case 0xdb: return str(view.getUint32(need(4)));
      case 0xdc: return array(view.getUint16(need(2)));
      case 0xdd: return array(view.getUint32(need(4)));
      case 0xde: return map(view.getUint16(need(2)));
      case 0xdf: return map(view.getUint32(need(4)));
      default:
        throw new MsgpackError(`unsupported type byte 0x${type.toString(16)} at offset ${pos - 1}`);
    }
  }

  // msgpack is big-endian, unlike the word graphs.
  function bigEndian64(at, signed) {
    const big = signed ? view.getBigInt64(at, false) : view.getBigUint64(at, false);
    const small = Number(big);
    return Number.isSafeInteger(small) ? small : big;
  }

  let result;
  try {
    result = value();
  } catch (error) {
    if (error instanceof MsgpackError) throw error;
    throw new MsgpackError(`not msgpack: ${error.message}`);
  }
  if (pos !== bytes.length) {
    throw new MsgpackError(`${bytes.length - pos} bytes left after the value`);
  }
  return result;
}
