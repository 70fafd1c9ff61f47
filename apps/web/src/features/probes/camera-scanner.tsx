import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../components/use-is-desktop';

/** The part of the Barcode Detection API used here (not yet in TypeScript's DOM types). */
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorConstructor = new (options: { formats: string[] }) => BarcodeDetectorLike;

function detectorClass(): BarcodeDetectorConstructor | null {
  const candidate = (globalThis as { BarcodeDetector?: BarcodeDetectorConstructor })
    .BarcodeDetector;
  return typeof candidate === 'function' ? candidate : null;
}

/** Whether this browser can read DataMatrix from the camera (the button is hidden otherwise). */
export function cameraScanSupported(): boolean {
  return detectorClass() !== null && !!navigator.mediaDevices?.getUserMedia;
}

/**
 * The camera's picture with DataMatrix detection a few times a second; the first code read is
 * handed over and the camera stops. Closing the dialog stops it too.
 */
export function CameraScanner({
  onCode,
  onClose,
}: {
  onCode: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const handOver = useRef(onCode);
  useEffect(() => {
    handOver.current = onCode;
  }, [onCode]);

  useEffect(() => {
    const Detector = detectorClass();
    if (!Detector) return;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ['data_matrix'] });
    async function start() {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
        });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        const tick = async () => {
          if (stopped || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          const value = found[0]?.rawValue?.trim();
          if (value) {
            stopped = true;
            handOver.current(value);
            return;
          }
          timer = window.setTimeout(() => void tick(), 250);
        };
        void tick();
      } catch {
        setFailed(true);
      }
    }
    void start();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('reception.cameraTitle')}
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm">
        {failed ? (
          <Alert color="red" role="alert">
            {t('reception.cameraFailed')}
          </Alert>
        ) : (
          <Text size="sm">{t('reception.cameraHint')}</Text>
        )}
        <video
          ref={video}
          muted
          playsInline
          aria-label={t('reception.cameraTitle')}
          style={{ width: '100%', borderRadius: 4, background: '#000' }}
        />
      </Stack>
    </Modal>
  );
}
